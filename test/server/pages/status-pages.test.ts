/**
 * The status page editor (server/pages/status-pages/status-pages.ts, status-incidents.ts): settings, components, logo and incidents with each refusal beside
 * its field; read-only members see the list only; a page of another project is a 404; a maintenance window makes the public page "Under
 * maintenance"; an edit reaches the public page through the change stream.
 */
import { expect } from 'chai';
import { StatusPage } from '../../../shared/models/status-page.js';
import { Incident } from '../../../shared/models/incident.js';
import { Maintenance } from '../../../shared/models/maintenance.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';
import { waitFor } from '../../helpers/poll.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
const SETTINGS = { title: 'Acme', slug: 'acme-editor', description: '', tz: 'UTC', visibility: 'public', published: '1' };

/** A project with a member of `role` signed in. */
async function setUp(role: 'rw' | 'ro' = 'rw') {
  const built = await buildProject();
  await join(built.project._id, await buildUser(`${role}-status@example.org`), role);
  const agent = webAgent();
  await signIn(agent, `${role}-status@example.org`);
  const list = `/projects/${built.project._id}/status-pages/`;
  return { built, agent, list, _csrf: csrfOf((await agent.get(list)).text) };
}

/** Creates a page through the form; its editor's path. */
async function created(agent: ReturnType<typeof webAgent>, list: string, _csrf: string, settings: Record<string, string> = SETTINGS): Promise<string> {
  const res = await agent.post(list).type('form').send({ ...settings, _csrf });
  expect(res.status, res.text).to.equal(303);
  return res.headers.location;
}

describe('the status page editor', () => {
  it('creates a page, saves components, and shows each refusal beside its field with what was typed', async () => {
    const { built, agent, list, _csrf } = await setUp();
    const check = await buildCheck(built, { name: 'db-backup' });
    const one = await created(agent, list, _csrf);
    const page = await StatusPage.findOne({ slug: 'acme-editor' }).lean();
    expect(one).to.equal(`${list}${page?._id}/`);
    expect(page).to.include({ projectId: built.project._id, published: true, visibility: 'public', passwordHash: null });

    const taken = await agent.post(list).type('form').send({ ...SETTINGS, title: 'Other <b>', _csrf });
    expect(taken.status).to.equal(400);
    expect(taken.text).to.contain('id="slug-error">the address /status/acme-editor/ is taken').and.contain('value="Other &lt;b&gt;"');
    for (const [field, bad, message] of [['slug', 'Acme!', 'lower-case letters'], ['tz', 'Mars/Olympus', 'is not a time zone'], ['title', '', 'give the page a title']]) {
      const res = await agent.post(one).type('form').send({ ...SETTINGS, [field]: bad, _csrf });
      expect(res.status, field).to.equal(400);
      expect(res.text, field).to.contain(`id="${field}-error">`).and.contain(message);
    }

    const row = { section_0_present: '1', section_0_name: 'Backups', section_0_present_0: '1', section_0_check_0: check._id };
    const nameless = await agent.post(`${one}sections`).type('form').send({ ...row, section_0_name_0: '', _csrf });
    expect(nameless.text).to.contain('id="section_0_name_0-error">give this component the name visitors will see');
    const stranger = await agent.post(`${one}sections`).type('form').send({ ...row, section_0_check_0: (await buildCheck(await buildProject()))._id, section_0_name_0: 'X', _csrf });
    expect(stranger.text).to.contain('id="section_0_check_0-error">this check is not in the project');
    expect((await agent.post(`${one}sections`).type('form').send({ ...row, section_0_name_0: 'Nightly backup', _csrf })).status).to.equal(303);
    expect((await StatusPage.findById(page?._id).lean())?.sections).to.deep.equal([{ name: 'Backups', components: [{ checkId: check._id, name: 'Nightly backup' }] }]);
  });

  it('takes a PNG logo and refuses a file that is not an image, or is too large, beside the field', async () => {
    const { agent, list, _csrf } = await setUp();
    const one = await created(agent, list, _csrf);
    const upload = (data: Buffer, name: string) => agent.post(`${one}logo`).field('_csrf', _csrf).attach('logo', data, name);
    const text = await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.png');
    expect(text.status).to.equal(400);
    expect(text.text).to.contain('id="logo-error">the logo must be a PNG, JPEG, GIF or WebP image');
    const large = await upload(Buffer.concat([PNG, Buffer.alloc(300 * 1024)]), 'big.png');
    expect(large.status).to.equal(400);
    expect(large.text).to.contain('id="logo-error">the logo is larger than 256 KB');
    expect((await upload(PNG, 'logo.png')).status).to.equal(303);
    const logo = await agent.get('/status/acme-editor/logo').buffer(true);
    expect(logo.status).to.equal(200);
    expect(logo.headers['content-type']).to.equal('image/png');
    expect(Buffer.compare(logo.body as Buffer, PNG)).to.equal(0);
  });

  it('posts an incident, an update that resolves it, and refuses one without a title', async () => {
    const { agent, list, _csrf } = await setUp();
    const one = await created(agent, list, _csrf);
    const incidents = `${one}incidents/`;
    expect((await agent.post(incidents).type('form').send({ title: '', stage: 'investigating', text: 'x', _csrf })).text).to.contain('id="title-error">give the incident a title');
    expect((await agent.post(incidents).type('form').send({ title: 'Queue stuck', stage: 'identified', text: 'A worker hung.', _csrf })).status).to.equal(303);
    const incident = await Incident.findOne({ title: 'Queue stuck' }).lean();
    expect(incident).to.include({ resolved: null });
    expect((await agent.post(`${incidents}${incident?._id}/`).type('form').send({ stage: 'resolved', text: 'Restarted.', _csrf })).status).to.equal(303);
    const resolved = await Incident.findById(incident?._id).lean();
    expect(resolved?.resolved).to.be.an.instanceOf(Date);
    expect(resolved?.updates.map((u) => u.stage)).to.deep.equal(['identified', 'resolved']);
    const json = (await agent.get('/status/acme-editor/status.json')).body as { incidents: { title: string; status: string }[] };
    expect(json.incidents).to.deep.include.members([{ ...json.incidents[0], title: 'Queue stuck', status: 'resolved' }]);
  });

  it('lets a read-only member see the list only, and hides a page from another project', async () => {
    const owner = await setUp();
    const one = await created(owner.agent, owner.list, owner._csrf);
    const reader = webAgent();
    const user = await buildUser('reader-status@example.org');
    await join(owner.built.project._id, user, 'ro');
    await signIn(reader, 'reader-status@example.org');
    const listed = await reader.get(owner.list);
    expect(listed.status).to.equal(200);
    expect(listed.text).to.contain('/status/acme-editor/').and.not.contain('New status page');
    expect((await reader.get(one)).status).to.equal(403);
    expect((await reader.post(owner.list).type('form').send({ ...SETTINGS, slug: 'ro-page', _csrf: csrfOf(listed.text) })).status).to.equal(403);
    const own = await buildProject();
    await join(own.project._id, user, 'owner');
    expect((await reader.get(`/projects/${own.project._id}/status-pages/${one.split('/').at(-2)}/`)).status).to.equal(404);
  });

  it('shows "Under maintenance" while a window covers the components, and an edit on the public page at once', async () => {
    const { built, agent, list, _csrf } = await setUp();
    const check = await buildCheck(built, { name: 'db', status: 'up', lastPing: new Date() });
    const one = await created(agent, list, _csrf);
    await agent.post(`${one}sections`).type('form').send({ section_0_present: '1', section_0_name: '', section_0_present_0: '1', section_0_check_0: check._id, section_0_name_0: 'Database', _csrf });
    await Maintenance.create({ _id: crypto.randomUUID(), projectId: built.project._id, start: new Date(Date.now() - 3600_000), end: new Date(Date.now() + 3600_000), allChecks: true, created: new Date() });
    const page = await agent.get('/status/acme-editor/');
    expect(page.text).to.contain('>Under maintenance</p>').and.contain('Database');
    await agent.post(one).type('form').send({ ...SETTINGS, title: 'Acme renamed', _csrf });
    await waitFor('the new title on the public page', async () => (await agent.get('/status/acme-editor/')).text.includes('<h1>Acme renamed</h1>'), 15_000);
  });
});
