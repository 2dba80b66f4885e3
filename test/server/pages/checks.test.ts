/**
 * Checks in the browser (server/pages/checks/checks.ts, check-form.ts, cron-preview.ts): create, edit, preview, pause, delete,
 * with the API's own validation messages beside the fields.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import { Check } from '../../../shared/models/check.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';

/** A project with a read-write member signed in. */
async function setUp(): Promise<{ built: TestProject; agent: supertest.Agent; _csrf: string; base: string }> {
  const built = await buildProject();
  await join(built.project._id, await buildUser('rw@example.org'), 'rw');
  const agent = webAgent();
  await signIn(agent, 'rw@example.org');
  const base = `/projects/${built.project._id}`;
  return { built, agent, _csrf: csrfOf((await agent.get(`${base}/checks/new/`)).text), base };
}

const SIMPLE = { name: 'backup', slug: 'backup', tags: 'prod db', desc: 'nightly dump', kind: 'simple', timeout: '1', timeout_unit: '86400', grace: '2', grace_unit: '3600' };

describe('checks in the browser', () => {
  it('creates a simple check with every field through the API service', async () => {
    const { built, agent, _csrf, base } = await setUp();
    const channel = await buildChannel(built, { name: 'ops mail' });
    const form = { ...SIMPLE, _csrf, post_only: '1', manual_resume: '1', filter_body: '1', success_kw: 'OK', failure_kw: 'FAIL', channel: channel._id };
    const res = await agent.post(`${base}/checks/`).type('form').send(form);
    const check = await Check.findOne({ projectId: built.project._id }).lean();
    expect(res.headers.location).to.equal(`${base}/checks/${check?._id}/`);
    expect(check).to.include({ name: 'backup', slug: 'backup', tags: 'prod db', desc: 'nightly dump', kind: 'simple', timeout: 86400, grace: 7200 });
    expect(check).to.include({ methods: 'POST', manualResume: true, filterBody: true, successKw: 'OK', failureKw: 'FAIL' });
    expect(check?.channels).to.deep.equal([channel._id]);
    const page = await agent.get(`${base}/checks/${check?._id}/`);
    expect(page.text).to.contain(`curl -m 10 --retry 5 http://localhost:8000/ping/${check?._id}`).and.contain('runitor').and.contain('Invoke-RestMethod');
  });

  it("shows the API's message under the field and creates nothing", async () => {
    const { agent, _csrf, base } = await setUp();
    const tooSmall = await agent.post(`${base}/checks/`).type('form').send({ ...SIMPLE, _csrf, timeout: '0' });
    expect(tooSmall.status).to.equal(400);
    expect(tooSmall.text).to.contain('<p class="field-error" id="timeout-error">timeout is too small</p>');
    const notNumber = await agent.post(`${base}/checks/`).type('form').send({ ...SIMPLE, _csrf, grace: 'soon' });
    expect(notNumber.text).to.contain('id="grace-error">grace is not a number</p>');
    const badSlug = await agent.post(`${base}/checks/`).type('form').send({ ...SIMPLE, _csrf, slug: 'Not A Slug' });
    expect(badSlug.text).to.contain('id="slug-error">slug does not match pattern</p>');
    expect(await Check.countDocuments()).to.equal(0);
  });

  it('creates a cron check and refuses a bad expression or zone with the API messages', async () => {
    const { agent, _csrf, base } = await setUp();
    const bad = await agent.post(`${base}/checks/`).type('form').send({ ...SIMPLE, _csrf, kind: 'cron', schedule: '61 * * * *', tz: 'UTC' });
    expect(bad.text).to.contain('schedule is not a valid cron or OnCalendar expression');
    const badTz = await agent.post(`${base}/checks/`).type('form').send({ ...SIMPLE, _csrf, kind: 'cron', schedule: '0 6 * * *', tz: 'Mars/Base' });
    expect(badTz.text).to.contain('tz is not a valid timezone');
    expect(await Check.countDocuments()).to.equal(0);
    await agent.post(`${base}/checks/`).type('form').send({ ...SIMPLE, _csrf, kind: 'cron', schedule: '0 6 * * 1-5', tz: 'Europe/Riga' });
    expect(await Check.findOne().lean()).to.include({ kind: 'cron', schedule: '0 6 * * 1-5', tz: 'Europe/Riga' });
  });

  it('previews the next 5 runs in the chosen zone with the schedule engine, across a DST change', async () => {
    const now = new Date('2026-03-27T12:00:00Z');
    const built = await buildProject();
    await join(built.project._id, await buildUser('ro@example.org'), 'ro');
    const agent = webAgent({}, () => now);
    await signIn(agent, 'ro@example.org');
    const res = await agent.get(`/projects/${built.project._id}/cron-preview`).query({ schedule: '30 2 * * *', tz: 'Europe/Berlin' });
    expect(res.body.runs.map((run: { at: string }) => run.at)).to.deep.equal([
      '2026-03-28T01:30:00.000Z',
      // 02:30 does not exist on 29 March in Berlin: the run fires when the gap ends, 03:00 CEST.
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
      '2026-03-31T00:30:00.000Z',
      '2026-04-01T00:30:00.000Z',
    ]);
    expect(res.body.runs[0].local).to.equal('Sat 2026-03-28 02:30 CET');
    const bad = await agent.get(`/projects/${built.project._id}/cron-preview`).query({ schedule: '* * *', tz: 'UTC' });
    expect(bad.body).to.deep.equal({ error: 'schedule is not a valid cron or OnCalendar expression', field: 'schedule' });
  });

  it('edits, pauses, resumes and deletes a check after a confirmation page', async () => {
    const { built, agent, _csrf, base } = await setUp();
    const check = await buildCheck(built, { name: 'old', status: 'up', lastPing: new Date() });
    const one = `${base}/checks/${check._id}/`;
    expect((await agent.get(`${one}edit/`)).text).to.contain('value="old"');
    await agent.post(one).type('form').send({ ...SIMPLE, _csrf, name: 'renamed' });
    expect(await Check.findById(check._id).lean()).to.include({ name: 'renamed', timeout: 86400, status: 'up' });
    await agent.post(`${one}pause`).type('form').send({ _csrf });
    expect(await Check.findById(check._id).lean()).to.include({ status: 'paused' });
    await agent.post(`${one}resume`).type('form').send({ _csrf });
    expect(await Check.findById(check._id).lean()).to.include({ status: 'new' });
    expect((await agent.get(`${one}delete/`)).text).to.contain('Delete the check');
    const deleted = await agent.post(`${one}delete`).type('form').send({ _csrf });
    expect(deleted.headers.location).to.equal(`${base}/`);
    expect(await Check.countDocuments()).to.equal(0);
    expect((await agent.get(one)).status).to.equal(404);
  });

  it('lists statuses as JSON for the live list', async () => {
    const { built, agent, base } = await setUp();
    const check = await buildCheck(built, { name: 'up-one', status: 'up', lastPing: new Date() });
    const res = await agent.get(`${base}/checks.json?ids=${check._id}`);
    expect(res.body.checks).to.have.length(1);
    expect(res.body.checks[0]).to.include({ id: check._id, status: 'up' });
  });
});
