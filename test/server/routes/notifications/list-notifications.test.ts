import { expect } from 'chai';
import { buildChannel, buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { Notification, type NotificationDoc } from '../../../../shared/models/notification.js';
import { Channel, type ChannelDoc } from '../../../../shared/models/channel.js';
import type { CheckDoc } from '../../../../shared/models/check.js';
import { startAlertWorkers, testNotifyConfig, type TestAlertWorkers } from '../../../helpers/alerts.js';
import { startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { waitFor } from '../../../helpers/poll.js';
import { api } from '../support.js';

const T0 = Date.parse('2020-06-09T14:00:00.000Z');
const at = (seconds: number): Date => new Date(T0 + seconds * 1000);

/** A stored notification of `check` through `channel`, created `seconds` after T0. */
async function addNotification(check: CheckDoc, channel: ChannelDoc, seconds: number, fields: Partial<NotificationDoc> = {}): Promise<void> {
  await Notification.create({
    _id: `00000000-0000-4000-8000-${String(seconds).padStart(12, '0')}`,
    flipId: `flip-${seconds}`,
    checkId: check._id,
    channelId: channel._id,
    status: 'down',
    flipCreated: at(seconds - 1),
    reason: 'timeout',
    created: at(seconds),
    updated: at(seconds),
    ...fields,
  });
}

describe('GET /api/v3/checks/<uuid>/notifications/', () => {
  let p: TestProject;
  let channel: ChannelDoc;
  let check: CheckDoc;
  beforeEach(async () => {
    p = await buildProject();
    channel = await buildChannel(p, { name: 'ops hook', kind: 'webhook' });
    check = await buildCheck(p, { channels: [channel._id] });
  });

  const list = async () => (await api(p.apiKey).get(`/checks/${check._id}/notifications/`)).body.notifications;

  it('returns an empty list for a check that alerted nobody', async () => {
    const res = await api(p.apiKey).get(`/checks/${check._id}/notifications/`);
    expect([res.status, res.body]).to.deep.equal([200, { notifications: [] }]);
  });

  it('shows every field of a delivered alert', async () => {
    await addNotification(check, channel, 10, { state: 'delivered', attempts: 2, delivered: at(12.6), error: '' });
    expect(await list()).to.deep.equal([{
      status: 'down',
      flip_timestamp: '2020-06-09T14:00:09+00:00',
      channel: { id: channel._id, name: 'ops hook', kind: 'webhook' },
      channel_id: channel._id,
      created: '2020-06-09T14:00:10+00:00',
      outcome: 'delivered',
      delivered: '2020-06-09T14:00:12+00:00',
      attempts: 2,
      error: '',
    }]);
  });

  it('lists newest first, with failed, skipped, pending and sending outcomes and their errors', async () => {
    await addNotification(check, channel, 1, { state: 'failed', attempts: 3, error: 'received status code 500: boom' });
    await addNotification(check, channel, 2, { state: 'failed', attempts: 0, error: 'channel is disabled' });
    await addNotification(check, channel, 3, { state: 'pending', attempts: 1, error: 'timed out' });
    await addNotification(check, channel, 4, { state: 'sending', status: 'up', reason: '' });
    const rows = (await list()) as { outcome: string; error: string; attempts: number; status: string; delivered: string | null }[];
    expect(rows.map((r) => [r.outcome, r.attempts, r.error, r.status, r.delivered])).to.deep.equal([
      ['sending', 0, '', 'up', null],
      ['pending', 1, 'timed out', 'down', null],
      ['skipped', 0, 'channel is disabled', 'down', null],
      ['failed', 3, 'received status code 500: boom', 'down', null],
    ]);
  });

  it('keeps the alerts of a deleted channel, with channel null', async () => {
    await addNotification(check, channel, 1, { state: 'delivered', attempts: 1, delivered: at(1) });
    await Channel.deleteOne({ _id: channel._id });
    const [row] = await list();
    expect([row.channel, row.channel_id]).to.deep.equal([null, channel._id]);
  });

  it('returns at most the newest 100', async () => {
    for (let i = 1; i <= 105; i++) await addNotification(check, channel, i);
    const rows = (await list()) as { created: string }[];
    expect([rows.length, rows[0].created, rows[99].created]).to.deep.equal([100, '2020-06-09T14:01:45+00:00', '2020-06-09T14:00:06+00:00']);
  });

  it('shows only the check\'s own alerts', async () => {
    const other = await buildCheck(p, { channels: [channel._id] });
    await addNotification(other, channel, 1);
    expect(await list()).to.deep.equal([]);
  });

  it('refuses a read-only key, as the pings list does', async () => {
    const res = await api(p.apiKeyReadonly).get(`/checks/${check._id}/notifications/`);
    expect([res.status, res.body.error]).to.deep.equal([401, 'wrong api key']);
  });

  it("answers 404 for an unknown check, 403 for another project's, and 404 on a unique_key path", async () => {
    const other = await buildProject();
    expect((await api(p.apiKey).get('/checks/6f2e4c1a-0000-4000-8000-000000000000/notifications/')).status).to.equal(404);
    expect((await api(other.apiKey).get(`/checks/${check._id}/notifications/`)).status).to.equal(403);
    expect((await api(p.apiKey).get(`/checks/${'a'.repeat(40)}/notifications/`)).status).to.equal(404);
  });

  describe('with real alerts', () => {
    let receiver: Receiver;
    let workers: TestAlertWorkers | undefined;
    afterEach(async () => {
      await workers?.stop(true);
      workers = undefined;
      await receiver.close();
    });

    /** Pings `/fail` through the service, then runs the notify worker until the check's alert had its first attempt. */
    async function failAndDeliver(): Promise<{ outcome: string; attempts: number; error: string; channel: { kind: string } }[]> {
      const hook = await buildChannel(p, { name: 'hook', kind: 'webhook', value: `${receiver.url}/hook` });
      const failing = await buildCheck(p, { status: 'up', channels: [hook._id] });
      expect((await http().get(`/ping/${failing._id}/fail`)).status).to.equal(200);
      workers = startAlertWorkers(testNotifyConfig(receiver.url));
      const tried = async () => (await Notification.countDocuments({ checkId: failing._id, attempts: { $gte: 1 }, state: { $ne: 'sending' } })) === 1;
      await waitFor('the first attempt recorded', tried, 20_000);
      return (await api(p.apiKey).get(`/checks/${failing._id}/notifications/`)).body.notifications;
    }

    it('shows a delivered webhook alert caused by a /fail ping', async () => {
      receiver = await startReceiver();
      const [row] = await failAndDeliver();
      expect([row.outcome, row.attempts, row.error, row.channel.kind]).to.deep.equal(['delivered', 1, '', 'webhook']);
      expect(receiver.requests).to.have.length(1);
    });

    it("shows a failed attempt with the provider's answer, its retry pending, when the receiver answers 500", async () => {
      receiver = await startReceiver(() => ({ status: 500, body: '{"error":"boom"}' }));
      const [row] = await failAndDeliver();
      expect([row.outcome, row.attempts]).to.deep.equal(['pending', 1]);
      expect(row.error).to.equal('received status code 500: {"error":"boom"}');
    });
  });
});
