import { expect } from 'chai';
import { systemClock } from '../../shared/clock.js';
import type { NotifyConfig } from '../../shared/config.js';
import { Channel } from '../../shared/models/channel.js';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { Flip } from '../../shared/models/flip.js';
import { Notification } from '../../shared/models/notification.js';
import { notifyJobId } from '../../shared/queues/notify.js';
import { completeOutbox, outboxEntry, type SendNow } from '../../shared/services/outbox.js';
import { alertNow, type AlertNow } from '../../workers/alert-now.js';
import { applyDeadlines } from '../../workers/deadlines.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { testNotifyConfig } from '../helpers/alerts.js';
import { jsonBody, startReceiver, type Receiver, type Reply } from '../helpers/receiver.js';

describe('alerts sent at once by the deadline worker (workers/alert-now.ts)', () => {
  let receiver: Receiver;
  let project: TestProject;
  let answer: Reply;
  let config: NotifyConfig;
  let alerts: AlertNow;

  beforeEach(async () => {
    answer = { status: 200 };
    receiver = await startReceiver(() => answer);
    project = await buildProject();
    config = testNotifyConfig(receiver.url, { backoffMs: 60_000 });
    alerts = alertNow({ queues: testContext().queues, clock: systemClock, notify: config });
  });
  afterEach(async () => {
    await alerts.idle();
    await receiver.close();
  });

  const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);
  const deps = () => ({ queues: testContext().queues, clock: systemClock, notify: config, alerts });
  async function overdue(count: number): Promise<CheckDoc[]> {
    const channel = await buildChannel(project, { kind: 'webhook', value: `${receiver.url}/hook` });
    const fields = { status: 'up' as const, timeout: 1, grace: 1, lastPing: secondsAgo(10), deadline: secondsAgo(8), channels: [channel._id] };
    return Promise.all(Array.from({ length: count }, () => buildCheck(project, fields)));
  }
  const jobOf = async (checkId: string) => {
    const notification = await Notification.findOne({ checkId }).lean();
    return testContext().queues.notify.getJob(notifyJobId(notification!.flipId, notification!.channelId));
  };

  it('sends each alert without a notify job, records it delivered, then pulls the outbox entries', async () => {
    const checks = await overdue(20);
    await applyDeadlines(deps(), checks.map((c) => c._id));
    await alerts.idle();

    expect(receiver.requests.map((r) => jsonBody(r).uuid).sort()).to.deep.equal(checks.map((c) => c._id).sort());
    const notifications = await Notification.find({ checkId: { $in: checks.map((c) => c._id) } }).lean();
    expect(notifications.map((n) => [n.state, n.attempts, n.attemptLog.length, n.claimToken])).to.deep.equal(checks.map(() => ['delivered', 1, 1, null]));
    expect(await Flip.countDocuments({ checkId: { $in: checks.map((c) => c._id) }, newStatus: 'down' })).to.equal(20);
    expect(await testContext().queues.notify.getJobCountByTypes('waiting', 'delayed', 'active', 'completed', 'failed')).to.equal(0);
    expect(await Check.countDocuments({ _id: { $in: checks.map((c) => c._id) }, 'outbox.0': { $exists: true } })).to.equal(0);
  });

  it('hands a retryable failure to a notify job with the attempts left, after the backoff', async () => {
    answer = { status: 503 };
    const [check] = await overdue(1);
    await applyDeadlines(deps(), [check!._id]);
    await alerts.idle();

    expect(receiver.requests).to.have.length(1);
    expect(await Notification.findOne({ checkId: check!._id }).lean()).to.include({ state: 'pending', attempts: 1, error: 'received status code 503: {}' });
    const job = await jobOf(check!._id);
    expect(job?.opts).to.deep.include({ attempts: config.attempts - 1, delay: config.backoffMs, backoff: { type: 'exponential', delay: 2 * config.backoffMs } });
    expect(await job!.getState()).to.equal('delayed');
  });

  it('fails at once, with no job, when no attempt is left', async () => {
    answer = { status: 503 };
    config = { ...config, attempts: 1 };
    alerts = alertNow({ queues: testContext().queues, clock: systemClock, notify: config });
    const [check] = await overdue(1);
    await applyDeadlines(deps(), [check!._id]);
    await alerts.idle();

    expect(await Notification.findOne({ checkId: check!._id }).lean()).to.include({ state: 'failed', attempts: 1 });
    expect(await jobOf(check!._id)).to.equal(undefined);
  });

  it('releases an alert to a notify job, unsent, when its claim would run out during the attempt', async () => {
    const [check] = await overdue(1);
    const stored = await Check.findById(check!._id).lean<CheckDoc>();
    const entry = outboxEntry({ oldStatus: 'up', newStatus: 'down', reason: 'timeout' }, secondsAgo(8), new Date());
    const sendNow = { leaseMs: config.attemptTimeoutMs - 100, send: (sent: readonly SendNow[]) => alerts.send(sent.map((s) => ({ ...s, check: stored }))) };
    await completeOutbox({ queues: testContext().queues, notify: config, sendNow }, [{ check: stored!, entry }], new Date());
    await alerts.idle();

    expect(receiver.requests).to.have.length(0);
    expect(await Notification.findOne({ checkId: check!._id }).lean()).to.include({ state: 'pending', attempts: 0, claimToken: null });
    expect(await (await jobOf(check!._id))!.getState()).to.be.oneOf(['waiting', 'active']);
  });

  it('releases the alerts still waiting for a slot when stopped, and finishes the one being sent', async () => {
    answer = 'hang';
    config = { ...config, concurrency: 1 };
    alerts = alertNow({ queues: testContext().queues, clock: systemClock, notify: config });
    const checks = await overdue(3);
    await applyDeadlines(deps(), checks.map((c) => c._id));
    alerts.stop();
    await alerts.idle();

    expect(receiver.requests).to.have.length(1);
    const notifications = await Notification.find({ checkId: { $in: checks.map((c) => c._id) } }).lean();
    expect(notifications.map((n) => [n.state, n.attempts]).sort()).to.deep.equal([['pending', 0], ['pending', 0], ['pending', 1]]);
    for (const check of checks) expect(await jobOf(check._id)).to.not.equal(undefined);
  });

  it('skips the alerts of a channel a permanent refusal disabled during the same mass down', async () => {
    answer = { status: 404 };
    config = { ...config, concurrency: 1 };
    alerts = alertNow({ queues: testContext().queues, clock: systemClock, notify: config });
    const channel = await buildChannel(project, { kind: 'slack', value: `${receiver.url}/slack` });
    const fields = { status: 'up' as const, timeout: 1, grace: 1, lastPing: secondsAgo(10), deadline: secondsAgo(8), channels: [channel._id] };
    const checks = await Promise.all([1, 2, 3].map(() => buildCheck(project, fields)));
    await applyDeadlines(deps(), checks.map((c) => c._id));
    await alerts.idle();

    expect(receiver.requests).to.have.length(1);
    const errors = (await Notification.find({ channelId: channel._id }).lean()).map((n) => [n.state, n.error]);
    expect(errors.filter(([, error]) => error === 'channel is disabled')).to.deep.equal([['failed', 'channel is disabled'], ['failed', 'channel is disabled']]);
    expect(await Channel.findById(channel._id).lean()).to.include({ disabled: true });
  });

  it('sends only the notifications a repeated completion inserted; those already there get their notify jobs', async () => {
    const checks = await overdue(3);
    const owed = checks.map((check) => ({ check, entry: outboxEntry({ oldStatus: 'up', newStatus: 'down', reason: 'timeout' }, secondsAgo(8), new Date()) }));
    await completeOutbox({ queues: testContext().queues, notify: config }, [owed[1]!], new Date());
    const earlier = await jobOf(checks[1]!._id);
    await earlier!.remove();

    const handed: SendNow[] = [];
    await completeOutbox({ queues: testContext().queues, notify: config, sendNow: { leaseMs: 60_000, send: (sent) => handed.push(...sent) } }, owed, new Date());

    expect(handed.map((h) => h.notification.checkId).sort()).to.deep.equal([checks[0]!._id, checks[2]!._id].sort());
    expect(handed.map((h) => h.channel._id)).to.deep.equal([checks[0]!.channels[0], checks[2]!.channels[0]]);
    const claimed = await Notification.find({ claimToken: handed[0]!.token }).lean();
    expect(claimed.map((n) => n.state)).to.deep.equal(['sending', 'sending']);
    expect(await jobOf(checks[1]!._id)).to.not.equal(undefined);
    expect(await jobOf(checks[0]!._id)).to.equal(undefined);
    expect(await Notification.findOne({ checkId: checks[1]!._id }).lean()).to.include({ state: 'pending' });
  });
});
