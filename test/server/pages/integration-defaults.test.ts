/**
 * Integrations connect by default in the web app (server/pages/integrations.ts, integration-checks.ts, the editor's
 * default in checks.ts): a new integration goes to every check unless "Assign to all existing checks" is unticked, a
 * new check starts with every integration ticked, the edit page switches checks one by one or all / none; the
 * Management API keeps assigning nothing. Also the list's icons, badges and relative times, the Integrations tab's
 * marker after a failed delivery, and messages without operator settings.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type supertest from 'supertest';
import { Channel } from '../../../shared/models/channel.js';
import { Check } from '../../../shared/models/check.js';
import { Notification } from '../../../shared/models/notification.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { startAlertWorkers, testNotifyConfig, type TestAlertWorkers } from '../../helpers/alerts.js';
import { recordTestFlip } from '../../helpers/flips.js';
import { waitFor } from '../../helpers/poll.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';
import { api } from '../routes/support.js';
import { channelValueOf } from '../../../server/services/channel-input.js';
import { VALIDATION_PREFIX } from '../../../server/schemas/parse.js';
import { forMembers } from '../../../server/pages/integrations/integration-messages.js';
import { assignChannel } from '../../../shared/services/channels.js';

/** A project with a read-write member signed in, and the CSRF token of the integrations page. */
async function setUp(): Promise<{ built: TestProject; agent: supertest.Agent; _csrf: string; base: string }> {
  const built = await buildProject();
  await join(built.project._id, await buildUser('rw@example.org'), 'rw');
  const agent = webAgent();
  await signIn(agent, 'rw@example.org');
  const base = `/projects/${built.project._id}/integrations/`;
  return { built, agent, _csrf: csrfOf((await agent.get(base)).text), base };
}

const channelsOf = async (id: string): Promise<string[]> => (await Check.findById(id).lean())?.channels ?? [];

describe('integrations connect by default in the web app', () => {
  let receiver: Receiver | undefined;
  let workers: TestAlertWorkers | undefined;
  afterEach(async () => {
    await workers?.stop();
    await receiver?.close();
    workers = undefined;
    receiver = undefined;
  });

  it('offers "Assign to all existing checks" ticked, and assigns a new integration to every check', async () => {
    const { built, agent, _csrf, base } = await setUp();
    const [a, b] = [await buildCheck(built, { name: 'a' }), await buildCheck(built, { name: 'b' })];
    expect((await agent.get(base)).text).to.match(/<input type="checkbox" name="assign_all" value="1" id="assign-all" checked>/);
    const res = await agent.post(base).type('form').send({ _csrf, kind: 'email', name: 'ops', address: 'ops@example.org', notify: 'both', assign_all: '1' });
    expect(res.status).to.equal(303);
    const channel = await Channel.findOne({ projectId: built.project._id }).lean();
    expect(await channelsOf(a._id)).to.deep.equal([channel?._id]);
    expect(await channelsOf(b._id)).to.deep.equal([channel?._id]);
    expect((await agent.get(base)).text).to.contain('Integration added to 2 checks.').and.contain('<td class="channel-checks">2</td>');
  });

  it('assigns nothing when the box is unticked, and keeps it unticked on a refused form', async () => {
    const { built, agent, _csrf, base } = await setUp();
    const check = await buildCheck(built);
    const bad = await agent.post(base).type('form').send({ _csrf, kind: 'webhook', url: 'not a url', notify: 'both' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.match(/id="assign-all" >/);
    await agent.post(base).type('form').send({ _csrf, kind: 'webhook', url: 'https://hooks.example.org/a', notify: 'both' });
    expect(await Channel.countDocuments()).to.equal(1);
    expect(await channelsOf(check._id)).to.deep.equal([]);
  });

  it("starts a new check with every integration ticked, and saves them", async () => {
    const { built, agent } = await setUp();
    const [one, two] = [await buildChannel(built, { name: 'one', kind: 'email', value: 'a@example.org' }), await buildChannel(built, { name: 'two', kind: 'email', value: 'b@example.org' })];
    const form = await agent.get(`/projects/${built.project._id}/checks/new/`);
    expect(form.text).to.contain('<legend>Integrations to notify</legend>').and.not.contain('Channels');
    for (const id of [one._id, two._id]) expect(form.text).to.contain(`name="channel" value="${id}" checked>`);
    const _csrf = csrfOf(form.text);
    const res = await agent.post(`/projects/${built.project._id}/checks/`).type('form').send({ _csrf, name: 'nightly', kind: 'simple', timeout: '1', timeout_unit: '86400', grace: '1', grace_unit: '3600', tz: 'UTC', channel: [one._id, two._id] });
    expect(res.status).to.equal(303);
    const check = await Check.findOne({ name: 'nightly' }).lean();
    expect(check?.channels).to.have.members([one._id, two._id]);
  });

  it('points the editor of a project without integrations to the Integrations page', async () => {
    const { built, agent } = await setUp();
    const form = await agent.get(`/projects/${built.project._id}/checks/new/`);
    expect(form.text).to.contain(`add one on the <a href="/projects/${built.project._id}/integrations/">Integrations page</a>`);
    expect(form.text).to.not.contain('hc-admin channel').and.not.contain('with the API');
  });

  it('keeps the Management API as the seed: no channels for a check without `channels`, no checks for a new channel', async () => {
    const built = await buildProject();
    const old = await buildCheck(built);
    const channel = await api(built.apiKey).post('/integrations/', { kind: 'email', value: 'ops@example.org' });
    expect(channel.status).to.equal(201);
    expect(await channelsOf(old._id)).to.deep.equal([]);
    const created = await api(built.apiKey).post('/checks/', { name: 'from the API' });
    expect(created.status).to.equal(201);
    expect(created.body.channels).to.equal('');
    expect(await channelsOf((await Check.findOne({ name: 'from the API' }).lean())!._id)).to.deep.equal([]);
  });

  it("switches checks on and off from the integration's edit page, one at a time or all and none", async () => {
    const { built, agent, _csrf, base } = await setUp();
    const channel = await buildChannel(built, { name: 'ops', kind: 'email', value: 'ops@example.org' });
    const [a, b] = [await buildCheck(built, { name: 'a' }), await buildCheck(built, { name: '' })];
    const edit = await agent.get(`${base}${channel._id}/edit/`);
    expect(edit.text).to.contain('id="assigned-checks"').and.contain('<span class="sr-only"> for unnamed</span>').and.contain('0 of 2 checks.');
    const post = (fields: object) => agent.post(`${base}${channel._id}/checks`).type('form').send({ _csrf, ...fields });
    expect((await post({ check: a._id, on: '1' })).headers.location).to.equal(`${base}${channel._id}/edit/#checks`);
    expect([await channelsOf(a._id), await channelsOf(b._id)]).to.deep.equal([[channel._id], []]);
    await post({ which: 'all' });
    expect([await channelsOf(a._id), await channelsOf(b._id)]).to.deep.equal([[channel._id], [channel._id]]);
    expect((await agent.get(`${base}${channel._id}/edit/`)).text).to.contain('2 of 2 checks.').and.contain('aria-pressed="true"');
    await post({ check: b._id, on: '0' });
    expect(await channelsOf(b._id)).to.deep.equal([]);
    await post({ which: 'none' });
    expect([await channelsOf(a._id), await channelsOf(b._id)]).to.deep.equal([[], []]);
    expect((await post({ which: 'some' })).status).to.equal(400);
  });

  it("refuses another project's check, and keeps the check's other integrations and state", async () => {
    const { built, agent, _csrf, base } = await setUp();
    const channel = await buildChannel(built, { kind: 'email', value: 'ops@example.org' });
    const other = await buildChannel(built, { kind: 'email', value: 'dev@example.org' });
    const mine = await buildCheck(built, { channels: [other._id], status: 'up' });
    const foreign = await buildCheck(await buildProject());
    const res = await agent.post(`${base}${channel._id}/checks`).type('form').send({ _csrf, check: foreign._id, on: '1' });
    expect(res.status).to.equal(404);
    await agent.post(`${base}${channel._id}/checks`).type('form').send({ _csrf, which: 'all' });
    expect(await channelsOf(foreign._id)).to.deep.equal([]);
    const after = await Check.findById(mine._id).lean();
    expect([after?.channels, after?.status, after?.rev]).to.deep.equal([[other._id, channel._id], 'up', (mine.rev ?? 0) + 1]);
  });

  it('loses no assignment when integrations are switched on for the same checks at the same moment (the guarded writer re-reads)', async () => {
    const built = await buildProject();
    const checks = await Promise.all(Array.from({ length: 5 }, (_, i) => buildCheck(built, { name: `c${i}` })));
    const channels = await Promise.all(Array.from({ length: 4 }, (_, i) => buildChannel(built, { name: `ch${i}`, kind: 'email', value: `c${i}@example.org` })));
    const changed = await Promise.all(channels.map((channel) => assignChannel(channel, 'all', true)));
    expect(changed).to.deep.equal([5, 5, 5, 5]);
    for (const check of checks) expect(await channelsOf(check._id)).to.have.members(channels.map((channel) => channel._id));
    expect(await assignChannel(channels[0], 'all', true)).to.equal(0);
  });

  it('lists each integration with its kind icon, a delivery badge and a relative time with the exact one on hover', async () => {
    const { built, agent, base } = await setUp();
    const never = await buildChannel(built, { name: 'quiet', kind: 'email', value: 'a@example.org' });
    const ok = await buildChannel(built, { name: 'fine', kind: 'slack', value: 'https://hooks.slack.com/services/T/B/X', lastNotify: new Date(Date.now() - 3 * 3600_000) });
    const at = new Date(Date.now() - 3 * 3600_000 - 60_000);
    await Notification.create({ _id: randomUUID(), flipId: 'f1', checkId: (await buildCheck(built))._id, channelId: ok._id, status: 'down', flipCreated: at, reason: 'timeout', created: at, updated: at, state: 'delivered', attempts: 1, error: '', delivered: at });
    const page = (await agent.get(base)).text;
    const row = (id: string) => page.split(`data-channel="${id}"`)[1]?.split('</tr>')[0] ?? '';
    expect(row(never._id)).to.contain('role="img" aria-label="Email"').and.contain('<title>Email</title>').and.contain('no delivery yet');
    expect(row(ok._id)).to.contain('aria-label="Slack"').and.contain('class="delivery-badge delivery-ok">last delivery ok');
    expect(row(ok._id)).to.match(/<time datetime="[^"]+" title="\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC">3 hours ago<\/time>/);
  });

  it('marks the Integrations tab after a failed delivery to a webhook, on every project page, until a delivery succeeds', async () => {
    let status = 500;
    receiver = await startReceiver(() => ({ status, body: 'no' }));
    const notify = testNotifyConfig(receiver.url, { attempts: 1, allowPrivateIps: true });
    workers = startAlertWorkers(notify);
    const { built, agent, base } = await setUp();
    const channel = await buildChannel(built, { name: 'hook', kind: 'webhook', value: `${receiver.url}/hook` });
    const check = await buildCheck(built, { channels: [channel._id], status: 'up' });
    expect((await agent.get(`/projects/${built.project._id}/`)).text).to.not.contain('class="tab-marker"');
    await recordTestFlip({ ...check, status: 'down' }, { oldStatus: 'up', newStatus: 'down', reason: 'timeout' }, notify);
    await waitFor('the failed delivery', async () => (await Notification.findOne({ channelId: channel._id, state: 'failed' }).lean()) ?? false, 15_000);
    for (const path of [`/projects/${built.project._id}/`, base, `/projects/${built.project._id}/settings/`]) {
      expect((await agent.get(path)).text).to.contain('class="tab-marker"').and.contain('(a delivery failed)');
    }
    expect((await agent.get(base)).text).to.contain('class="delivery-badge delivery-failed">last delivery failed');
    status = 200;
    await recordTestFlip({ ...check, status: 'up' }, { oldStatus: 'down', newStatus: 'up', reason: '' }, notify);
    await waitFor('the delivered alert', async () => (await Notification.findOne({ channelId: channel._id, state: 'delivered' }).lean()) ?? false, 15_000);
    expect((await agent.get(base)).text).to.not.contain('class="tab-marker"');
  });

  it("shows a delivery refused for a private address in members' words; the operator setting stays in the log and docs", async () => {
    const { built, agent, base } = await setUp();
    const channel = await buildChannel(built, { name: 'lan hook', kind: 'webhook', value: 'http://10.0.0.7/hook', lastNotify: new Date(), lastError: 'x' });
    const at = new Date();
    const error = 'refused to connect to 10.0.0.7 (private address); set INTEGRATIONS_ALLOW_PRIVATE_IPS=true to allow private targets';
    await Notification.create({ _id: randomUUID(), flipId: 'f1', checkId: (await buildCheck(built))._id, channelId: channel._id, status: 'down', flipCreated: at, reason: 'timeout', created: at, updated: at, state: 'failed', attempts: 1, error });
    const page = (await agent.get(base)).text;
    expect(page).to.contain('refused to connect to 10.0.0.7 (private address): this server sends alerts to public addresses only');
    expect(page).to.not.contain('INTEGRATIONS_ALLOW_PRIVATE_IPS');
  });

  it("words the API's refusal of a private URL for members when the server refuses them", () => {
    let message = '';
    try {
      channelValueOf('webhook', { url: 'http://10.0.0.7/hook' }, false);
    } catch (err) {
      message = (err as Error).message.replace(VALIDATION_PREFIX, '');
    }
    expect(message).to.contain('INTEGRATIONS_ALLOW_PRIVATE_IPS');
    expect(forMembers(message)).to.equal('refused to connect to 10.0.0.7 (private address): this server sends alerts to public addresses only');
  });
});
