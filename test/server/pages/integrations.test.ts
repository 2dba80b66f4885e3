/**
 * Integrations in the browser (server/pages/integrations/integrations.ts, channel-form.ts): the list with assigned checks and the
 * last delivery, add/edit/delete with the API's validation beside the field (each kind's fields: integration-fields.test.ts), the Test button through the real
 * provider to a local receiver, its rate limit, and the check page's notification log.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type supertest from 'supertest';
import { Channel } from '../../../shared/models/channel.js';
import { Notification } from '../../../shared/models/notification.js';
import { parseChannelSettings } from '../../../shared/notify/kinds.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';
import { TESTS_PER_PROJECT, TESTS_PER_USER } from '../../../server/pages/integrations/integrations.js';

/** A project with a member of `role` signed in, and the CSRF token of the integrations page. */
async function setUp(role: 'rw' | 'ro' = 'rw'): Promise<{ built: TestProject; agent: supertest.Agent; _csrf: string; base: string }> {
  const built = await buildProject();
  await join(built.project._id, await buildUser(`${role}@example.org`), role);
  const agent = webAgent();
  await signIn(agent, `${role}@example.org`);
  const base = `/projects/${built.project._id}/integrations/`;
  return { built, agent, _csrf: csrfOf((await agent.get(base)).text), base };
}

describe('integrations in the browser', () => {
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  it('lists channels with their assigned checks and last delivery', async () => {
    const { built, agent, base } = await setUp();
    const channel = await buildChannel(built, { name: 'ops hook', kind: 'webhook', value: 'https://hooks.example.org/x' });
    const check = await buildCheck(built, { channels: [channel._id] });
    await buildCheck(built, { channels: [channel._id] });
    const at = new Date('2026-11-20T10:00:00Z');
    await Notification.create({ _id: randomUUID(), flipId: 'f1', checkId: check._id, channelId: channel._id, status: 'down', flipCreated: at, reason: 'timeout', created: at, updated: at, state: 'failed', attempts: 3, error: 'webhook answered 500' });
    const page = await agent.get(base);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('ops hook').and.contain('<td class="channel-checks">2</td>');
    expect(page.text).to.contain('2026-11-20 10:00:00 UTC').and.contain('>failed, retried 2 times</span>').and.contain('webhook answered 500');
  });

  it('adds a channel through the API rules, alerting on down only', async () => {
    const { built, agent, _csrf, base } = await setUp();
    const res = await agent.post(base).type('form').send({ _csrf, kind: 'webhook', name: 'hook', url: 'https://hooks.example.org/a', notify: 'down' });
    expect(res.status).to.equal(303);
    const channel = await Channel.findOne({ projectId: built.project._id }).lean();
    expect(channel).to.include({ kind: 'webhook', name: 'hook' });
    expect(parseChannelSettings('webhook', channel?.value ?? '')).to.include({ url: 'https://hooks.example.org/a', up: false, down: true });
  });

  it("shows the kind's validation message beside the setting's field and creates nothing", async () => {
    const { agent, _csrf, base } = await setUp();
    const bad = await agent.post(base).type('form').send({ _csrf, kind: 'webhook', name: 'hook', url: 'not a url', notify: 'both' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('<p class="field-error" id="url-error">&quot;url&quot; must be a valid uri with a scheme matching the http|https pattern</p>');
    const badKind = await agent.post(base).type('form').send({ _csrf, kind: 'carrier-pigeon', name: 'x', url: 'x', notify: 'both' });
    expect(badKind.text).to.contain('id="kind-error">choose a kind</p>');
    expect(await Channel.countDocuments()).to.equal(0);
  });

  it('renames, keeps the settings when the field is left empty, and deletes after confirmation', async () => {
    const { built, agent, _csrf, base } = await setUp();
    const channel = await buildChannel(built, { name: 'old', kind: 'webhook', value: 'https://hooks.example.org/secret-path' });
    const check = await buildCheck(built, { channels: [channel._id] });
    const edit = await agent.get(`${base}${channel._id}/edit/`);
    expect(edit.text).to.contain('https://hooks.example.org/…').and.not.contain('secret-path');
    const saved = await agent.post(`${base}${channel._id}/`).type('form').send({ _csrf, kind: 'webhook', name: 'new', url: '', notify: 'up' });
    expect(saved.status).to.equal(303);
    const stored = await Channel.findById(channel._id).lean();
    expect(stored?.name).to.equal('new');
    expect(parseChannelSettings('webhook', stored?.value ?? '')).to.include({ url: 'https://hooks.example.org/secret-path', up: true, down: false });
    expect((await agent.get(`${base}${channel._id}/delete/`)).text).to.contain('id="confirm-delete"');
    expect((await agent.post(`${base}${channel._id}/delete`).type('form').send({ _csrf })).status).to.equal(303);
    expect(await Channel.countDocuments({ _id: channel._id })).to.equal(0);
    expect((await agent.get(`/projects/${built.project._id}/checks/${check._id}/`)).text).to.contain('<dd id="check-channels">none</dd>');
  });

  it('shows read-only members the list without controls and refuses their writes with 403', async () => {
    const { built, agent, _csrf, base } = await setUp('ro');
    const channel = await buildChannel(built, { name: 'ops', kind: 'webhook', value: 'https://hooks.example.org/a' });
    const page = await agent.get(base);
    expect(page.text).to.contain('ops').and.not.contain('/test"').and.not.contain('Add integration');
    const attempts = [
      agent.post(base).type('form').send({ _csrf, kind: 'webhook', name: 'x', url: 'https://hooks.example.org/b', notify: 'both' }),
      agent.post(`${base}${channel._id}/`).type('form').send({ _csrf, kind: 'webhook', name: 'renamed', url: '', notify: 'both' }),
      agent.post(`${base}${channel._id}/delete`).type('form').send({ _csrf }),
      agent.post(`${base}${channel._id}/test`).type('form').send({ _csrf }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).to.equal(403);
    expect(await Channel.find().lean()).to.have.length(1).and.to.have.nested.property('[0].name', 'ops');
  });

  it('refuses a form without the CSRF token and changes nothing', async () => {
    const { agent, base } = await setUp();
    const res = await agent.post(base).type('form').send({ kind: 'webhook', name: 'x', url: 'https://hooks.example.org/b', notify: 'both' });
    expect(res.status).to.equal(403);
    expect(res.text).to.contain('did not come from this site');
    expect(await Channel.countDocuments()).to.equal(0);
  });

  it("sends a test alert through the webhook provider, shows the provider's answer, and limits tests per channel", async () => {
    let status = 200;
    receiver = await startReceiver(() => ({ status, body: 'receiver says no' }));
    const { built, agent, _csrf, base } = await setUp();
    const channel = await buildChannel(built, { name: 'local', kind: 'webhook', value: `${receiver.url}/hook` });
    const ok = await agent.post(`${base}${channel._id}/test`).type('form').send({ _csrf });
    expect(ok.status).to.equal(200);
    expect(ok.text).to.contain('Test: delivered');
    expect(receiver.requests).to.have.length(1);
    expect(receiver.requests[0].url).to.equal('/hook');
    const limited = await agent.post(`${base}${channel._id}/test`).type('form').send({ _csrf });
    expect(limited.status).to.equal(429);
    expect(limited.text).to.contain('not sent: one test per 5 seconds per integration');
    expect(receiver.requests).to.have.length(1);

    status = 500;
    const other = await buildChannel(built, { name: 'failing', kind: 'webhook', value: `${receiver.url}/fail` });
    const failed = await agent.post(`${base}${other._id}/test`).type('form').send({ _csrf });
    expect(failed.status).to.equal(502);
    expect(failed.text).to.match(/id="test-result">Test: test notification failed: [^<]*500/);
  });

  it(`limits tests per person (${TESTS_PER_USER} an hour) and per project (${TESTS_PER_PROJECT}), across integrations`, async () => {
    receiver = await startReceiver();
    const { built, agent, _csrf, base } = await setUp();
    const channels = await Promise.all(Array.from({ length: TESTS_PER_PROJECT + 1 }, (_, i) => buildChannel(built, { name: `hook ${i}`, kind: 'webhook', value: `${receiver!.url}/${i}` })));
    const test = (who: supertest.Agent, token: string, i: number) => who.post(`${base}${channels[i]._id}/test`).type('form').send({ _csrf: token });
    for (let i = 0; i < TESTS_PER_USER; i += 1) expect((await test(agent, _csrf, i)).status).to.equal(200);
    const perUser = await test(agent, _csrf, TESTS_PER_USER);
    expect(perUser.status).to.equal(429);
    expect(perUser.text).to.contain(`not sent: ${TESTS_PER_USER} tests an hour per person`);
    // A second member of the project reaches the project's limit.
    await join(built.project._id, await buildUser('rw2@example.org'), 'rw');
    const other = webAgent();
    await signIn(other, 'rw2@example.org');
    const token = csrfOf((await other.get(base)).text);
    for (let i = TESTS_PER_USER; i < TESTS_PER_PROJECT; i += 1) expect((await test(other, token, i)).status).to.equal(200);
    const perProject = await test(other, token, TESTS_PER_PROJECT);
    expect(perProject.status).to.equal(429);
    expect(perProject.text).to.contain(`not sent: ${TESTS_PER_PROJECT} tests an hour per project`);
    expect(receiver.requests).to.have.length(TESTS_PER_PROJECT);
  });

  it("lists a check's latest 20 notifications on its page", async () => {
    const { built, agent } = await setUp();
    const channel = await buildChannel(built, { name: 'ops hook', kind: 'webhook', value: 'https://hooks.example.org/a' });
    const check = await buildCheck(built, { channels: [channel._id] });
    const docs = Array.from({ length: 25 }, (_, i) => {
      const at = new Date(Date.UTC(2026, 10, 20, 10, i));
      return { _id: randomUUID(), flipId: `f${i}`, checkId: check._id, channelId: channel._id, status: i % 2 ? 'up' : 'down', flipCreated: at, reason: 'timeout', created: at, updated: at, state: 'delivered', attempts: 1, error: '', delivered: at };
    });
    docs[24] = { ...docs[24], state: 'failed', error: 'webhook answered 410' };
    docs[23] = { ...docs[23], attempts: 2 };
    await Notification.insertMany(docs);
    const page = await agent.get(`/projects/${built.project._id}/checks/${check._id}/`);
    // The notifications table (the events list above it interleaves alerts with pings, paged on its own).
    const table = page.text.split('id="notifications"')[1]?.split('</table>')[0] ?? '';
    expect(table.match(/<tr>/g) ?? []).to.have.length(21);
    expect(table).to.contain('2026-11-20 10:24:00 UTC').and.contain('webhook answered 410').and.contain('ops hook');
    expect(table).to.contain('2026-11-20 10:05:00 UTC').and.not.contain('2026-11-20 10:04:00 UTC');
    // The outcome says how often an alert was retried: not at all, once, or n times.
    expect(page.text.match(/class="outcome outcome-\w+">[^<]*</g)?.slice(0, 3)).to.deep.equal([
      'class="outcome outcome-failed">failed<', 'class="outcome outcome-delivered">delivered, retried 1 time<', 'class="outcome outcome-delivered">delivered<',
    ]);
  });
});
