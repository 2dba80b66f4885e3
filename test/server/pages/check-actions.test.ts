/**
 * A check's actions in the browser (server/pages/checks/check-actions.ts): Ping now through the Pinging API's path, copy, transfer, clear events, the
 * ping email address; CSRF and roles refused.
 */
import { expect } from 'chai';
import { Types } from 'mongoose';
import type supertest from 'supertest';
import { Check } from '../../../shared/models/check.js';
import { Ping } from '../../../shared/models/ping.js';
import { Flip } from '../../../shared/models/flip.js';
import { Project } from '../../../shared/models/project.js';
import { config } from '../../../shared/config.js';
import { buildChannel, buildCheck, buildProject, http, type TestProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';

/** A project with a read-write member signed in, and one check. */
async function setUp(role: 'rw' | 'ro' = 'rw') {
  const built = await buildProject({ name: 'first' });
  const user = await buildUser(`${role}@example.org`);
  await join(built.project._id, user, role);
  const agent = webAgent();
  await signIn(agent, user.email);
  const check = await buildCheck(built, { name: 'backup', slug: 'backup', tags: 'prod', timeout: 3600, grace: 600 });
  const one = `/projects/${built.project._id}/checks/${check._id}/`;
  const _csrf = csrfOf((await agent.get(one)).text);
  return { built, user, agent, check, one, _csrf };
}

/** Posts a form with the session's token. */
function post(agent: supertest.Agent, path: string, form: Record<string, string>) {
  return agent.post(path).type('form').send(form);
}

describe('check actions in the browser', () => {
  it('Ping now records a ping through the ingest path, with the web app as its source', async () => {
    const { agent, check, one, _csrf, user } = await setUp();
    const res = await post(agent, `${one}ping`, { _csrf });
    expect(res.status).to.equal(303);
    expect(res.headers.location).to.equal(one);
    const stored = await Check.findById(check._id).lean();
    expect(stored).to.include({ status: 'up', nPings: 1 });
    const ping = await Ping.findOne({ checkId: check._id }).lean();
    expect(ping).to.include({ n: 1, kind: 'success', scheme: 'http', method: 'POST', ua: `hc-monitor web app (user ${user._id})` });
    expect(ping?.remoteAddr).to.match(/^(127\.0\.0\.1|::1)$/);
    const page = await agent.get(one);
    expect(page.text).to.contain('Ping sent').and.contain('<dt>Pings</dt><dd id="n-pings">1</dd>');
  });

  it('refuses every action without the CSRF token, and to a read-only member', async () => {
    const { agent, check, one } = await setUp();
    for (const action of ['ping', 'copy', 'clear', 'transfer']) {
      expect((await post(agent, `${one}${action}`, {})).status, action).to.equal(403);
    }
    const ro = await setUp('ro');
    const page = await ro.agent.get(ro.one);
    expect(page.text).not.to.contain('Ping now');
    for (const action of ['ping', 'copy', 'clear', 'transfer']) {
      expect((await post(ro.agent, `${ro.one}${action}`, { _csrf: ro._csrf })).status, action).to.equal(403);
    }
    expect((await ro.agent.get(`${ro.one}clear/`)).status).to.equal(403);
    expect(await Check.findById(check._id).lean()).to.include({ nPings: 0 });
    expect(await Check.countDocuments()).to.equal(2);
  });

  it('creates a copy with the same settings and lands on it; the check limit gives a message', async () => {
    const { built, agent, check, one, _csrf } = await setUp();
    const channel = await buildChannel(built, { name: 'ops' });
    await Check.updateOne({ _id: check._id }, { $set: { channels: [channel._id], kind: 'cron', schedule: '0 6 * * *', tz: 'Europe/Riga' } });
    const res = await post(agent, `${one}copy`, { _csrf, confirm: 'yes' });
    const copy = await Check.findOne({ name: 'backup (copy)' }).lean();
    expect(res.headers.location).to.equal(`/projects/${built.project._id}/checks/${copy?._id}/`);
    expect(copy).to.include({ projectId: built.project._id, kind: 'cron', schedule: '0 6 * * *', tz: 'Europe/Riga', grace: 600, tags: 'prod', slug: 'backup-copy', status: 'new' });
    expect(copy?.channels).to.deep.equal([channel._id]);
    await Project.updateOne({ _id: built.project._id }, { $set: { checkLimit: 2 } });
    const full = await post(agent, `${one}copy`, { _csrf, confirm: 'yes' });
    expect(full.status).to.equal(403);
    expect(full.text).to.contain('reached its check limit');
    expect(await Check.countDocuments({ projectId: built.project._id })).to.equal(2);
  });

  it('transfers a check to a writable project, dropping its channels; refuses a project it may not write to', async () => {
    const { built, user, agent, check, one, _csrf } = await setUp();
    const channel = await buildChannel(built);
    await Check.updateOne({ _id: check._id }, { $set: { channels: [channel._id] } });
    const child = await buildCheck(built, { name: 'restore', dependsOn: [check._id] });
    const other: TestProject = await buildProject({ name: 'second' });
    const readOnly = await buildProject({ name: 'watched' });
    const stranger = await buildProject({ name: 'not mine' });
    await join(other.project._id, user, 'rw');
    await join(readOnly.project._id, user, 'ro');
    const page = await agent.get(one);
    // The transfer's choices (the header's project switcher lists every project of the user, read-only ones too).
    const choices = /<select id="transfer-project"[^]*?<\/select>/.exec(page.text)?.[0] ?? '';
    expect(choices).to.contain(`<option value="${other.project._id}">second</option>`).and.not.contain(readOnly.project._id).and.not.contain(stranger.project._id);
    for (const target of [readOnly, stranger]) {
      const refused = await post(agent, `${one}transfer`, { _csrf, project: target.project._id });
      expect(refused.status).to.equal(403);
      expect(refused.text).to.contain("ou may not add checks to that project");
    }
    expect(await Check.findById(check._id).lean()).to.include({ projectId: built.project._id });
    await Project.updateOne({ _id: other.project._id }, { $set: { checkLimit: 0 } });
    expect((await post(agent, `${one}transfer`, { _csrf, project: other.project._id })).status).to.equal(403);
    await Project.updateOne({ _id: other.project._id }, { $set: { checkLimit: 20 } });
    const moved = await post(agent, `${one}transfer`, { _csrf, project: other.project._id });
    expect(moved.headers.location).to.equal(`/projects/${other.project._id}/checks/${check._id}/`);
    const stored = await Check.findById(check._id).lean();
    expect(stored).to.include({ projectId: other.project._id });
    expect(stored?.channels).to.deep.equal([]);
    // The old project's check no longer depends on a check it cannot see.
    expect((await Check.findById(child._id).lean())?.dependsOn ?? null).to.equal(null);
    expect((await agent.get(moved.headers.location)).status).to.equal(200);
    expect((await agent.get(one)).status).to.equal(404);
  });

  it('clears pings, flips and notifications after a confirmation page, keeping the check, its status and counters', async () => {
    const { agent, check, one, _csrf } = await setUp();
    const pinger = http();
    for (let i = 0; i < 3; i++) expect((await pinger.get(`/ping/${check._id}`)).status).to.equal(200);
    const now = new Date();
    await Flip.create({ checkId: check._id, created: now, recorded: now, oldStatus: 'new', newStatus: 'up' });
    const confirm = await agent.get(`${one}clear/`);
    expect(confirm.text).to.contain('Clear the events of “backup”?');
    await post(agent, `${one}clear`, { _csrf });
    expect(await Ping.countDocuments({ checkId: check._id })).to.equal(0);
    expect(await Flip.countDocuments({ checkId: check._id })).to.equal(0);
    expect(await Check.findById(check._id).lean()).to.include({ status: 'up', nPings: 3 });
    expect((await pinger.get(`/ping/${check._id}`)).status).to.equal(200);
    const after = await Ping.find({ checkId: check._id }).lean();
    expect(after.map((p) => p.n)).to.deep.equal([4]);
    expect(after[0]._id).to.be.instanceOf(Types.ObjectId);
  });

  it('shows the ping email address with an email example, and the Go, Ruby, PHP and C# examples', async () => {
    const { agent, check, one } = await setUp();
    const page = (await agent.get(one)).text;
    const address = `${check._id}@${config.pingEmailDomain}`;
    expect(page).to.contain(`<code class="wrap" id="ping-email">${address}</code>`).and.contain(`mail -s &quot;backup: success&quot; ${address}`);
    for (const id of ['go', 'ruby', 'php', 'csharp']) expect(page).to.contain(`id="example-${id}"`);
    expect(page).to.contain('client.Head(&quot;http://localhost:8000/ping/');
  });
});
