/**
 * Maintenance windows in the browser (server/pages/checks/maintenance.ts; docs/alerting-rules.md, "Maintenance windows"): create, list as active, edit, delete through
 * the API's service; read-only members see the list only (403 on POST); CSRF required; the API's message beside a bad field.
 */
import { expect } from 'chai';
import { Maintenance } from '../../../shared/models/maintenance.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';

const NOW = new Date('2026-11-26T12:00:00Z');
const ONCE = { name: 'db upgrade', kind: 'once', start: '2026-11-26T11:00', end: '2026-11-26T13:00', covers: 'all' };

/** A project with a member of `role` signed in, the clock at {@link NOW}. */
async function setUp(role: 'rw' | 'ro' = 'rw') {
  const built = await buildProject();
  await join(built.project._id, await buildUser(`${role}@example.org`), role);
  const agent = webAgent({}, () => NOW);
  await signIn(agent, `${role}@example.org`);
  const list = `/projects/${built.project._id}/maintenance/`;
  return { built, agent, list, _csrf: csrfOf((await agent.get(list)).text) };
}

describe('maintenance windows in the browser', () => {
  it('creates a one-off window listed as active, edits it to a recurring one and deletes it', async () => {
    const { built, agent, list, _csrf } = await setUp();
    const check = await buildCheck(built, { name: 'backup' });
    const created = await agent.post(list).type('form').send({ ...ONCE, _csrf });
    expect(created.status).to.equal(303);
    expect(created.headers.location).to.equal(list);
    const window = await Maintenance.findOne({ projectId: built.project._id }).lean();
    expect(window).to.include({ name: 'db upgrade', allChecks: true, schedule: '' });
    expect(window?.end?.toISOString()).to.equal('2026-11-26T13:00:00.000Z');
    const page = (await agent.get(list)).text;
    expect(page).to.contain(`data-window="${window?._id}" data-active="yes"`).and.contain('yes, until 2026-11-26 13:00:00 UTC');

    const one = `${list}${window?._id}/`;
    expect((await agent.get(`${one}edit/`)).text).to.contain('value="2026-11-26T11:00Z"');
    const recurring = { name: 'weekly', kind: 'cron', schedule: '0 2 * * 0', tz: 'Europe/Riga', duration: '1800', covers: 'checks', check: check._id };
    expect((await agent.post(one).type('form').send({ ...recurring, _csrf })).status).to.equal(303);
    expect(await Maintenance.findById(window?._id).lean()).to.include({ schedule: '0 2 * * 0', tz: 'Europe/Riga', duration: 1800, start: null, allChecks: false });
    const edited = (await agent.get(list)).text;
    expect(edited).to.contain('0 2 * * 0 (Europe/Riga), 1800 s each').and.contain('checks: backup').and.contain('data-active="no"');

    await agent.post(`${one}delete`).type('form').send({ _csrf });
    expect(await Maintenance.countDocuments({ projectId: built.project._id })).to.equal(0);
  });

  it("shows the API's message beside a bad field and creates nothing", async () => {
    const { built, agent, list, _csrf } = await setUp();
    const backwards = await agent.post(list).type('form').send({ ...ONCE, _csrf, end: '2026-11-26T10:00' });
    expect(backwards.status).to.equal(400);
    expect(backwards.text).to.contain('<p class="field-error" id="end-error">end precedes start</p>');
    const notTime = await agent.post(list).type('form').send({ ...ONCE, _csrf, start: 'tomorrow' });
    expect(notTime.text).to.contain('id="start-error">start is not an ISO 8601 time</p>');
    const noDuration = await agent.post(list).type('form').send({ ...ONCE, _csrf, kind: 'cron', schedule: '0 2 * * 0', tz: 'UTC', duration: '0' });
    expect(noDuration.text).to.contain('id="duration-error">duration is too small</p>');
    const nothing = await agent.post(list).type('form').send({ ...ONCE, _csrf, covers: 'tags', tags: '' });
    expect(nothing.text).to.contain('id="checks-error">checks or tags is missing</p>');
    expect(await Maintenance.countDocuments({ projectId: built.project._id })).to.equal(0);
  });

  it('shows read-only members the list without controls and refuses their POST with 403', async () => {
    const { built, agent, list, _csrf } = await setUp('ro');
    await Maintenance.create({ _id: crypto.randomUUID(), projectId: built.project._id, name: 'night', start: NOW, end: new Date(NOW.getTime() + 3600_000), allChecks: true, created: NOW });
    const page = (await agent.get(list)).text;
    expect(page).to.contain('night').and.not.contain('New window').and.not.contain('/delete');
    expect((await agent.post(list).type('form').send({ ...ONCE, _csrf })).status).to.equal(403);
    expect((await agent.get(`${list}new/`)).status).to.equal(403);
    expect(await Maintenance.countDocuments({ projectId: built.project._id })).to.equal(1);
  });

  it('refuses a form without the CSRF token', async () => {
    const { built, agent, list } = await setUp();
    const res = await agent.post(list).type('form').send(ONCE);
    expect(res.status).to.equal(403);
    expect(res.text).to.contain('This form has expired or did not come from this site');
    expect(await Maintenance.countDocuments({ projectId: built.project._id })).to.equal(0);
  });
});
