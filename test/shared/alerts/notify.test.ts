import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Job } from 'bullmq';
import { systemClock } from '../../../shared/clock.js';
import { Channel } from '../../../shared/models/channel.js';
import { Check } from '../../../shared/models/check.js';
import { Notification, type NotificationDoc } from '../../../shared/models/notification.js';
import { INTERRUPTED } from '../../../shared/alerts/notifications.js';
import { notifyJobId } from '../../../shared/queues/notify.js';
import { recordTestFlip } from '../../helpers/flips.js';
import { leaseMsOf, processNotify } from '../../../shared/alerts/notify.js';
import { notifyBatchers } from '../../../shared/alerts/notify-batch.js';
import { buildChannel, buildCheck, buildProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { startReceiver, type Receiver, type Reply } from '../../helpers/receiver.js';
import { startAlertWorkers, testNotifyConfig, type TestAlertWorkers } from '../../helpers/alerts.js';
import { waitFor } from '../../helpers/poll.js';

const CHILD = fileURLToPath(new URL('./alert-worker-process.js', import.meta.url));

describe('shared/alerts/notify (delivery of one flip through one channel)', () => {
  let receiver: Receiver;
  let workers: TestAlertWorkers[] = [];
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.stop(true)));
    workers = [];
    await receiver.close();
  });

  /** A down flip of a check with one channel (default: a webhook to the receiver). */
  async function downFlip(replies: (n: number) => Reply, channel: { kind?: string; value?: string } = {}) {
    receiver = await startReceiver(replies);
    const project = await buildProject();
    const ch = await buildChannel(project, { kind: 'webhook', value: `${receiver.url}/hook`, ...channel });
    const check = await buildCheck(project, { status: 'down', channels: [ch._id] });
    const flipId = await recordTestFlip(check, { oldStatus: 'up', newStatus: 'down', reason: 'timeout' }, testNotifyConfig(receiver.url));
    return { flipId, channelId: ch._id, checkId: check._id };
  }
  /** Runs the notify processor in-process (no workers) after `between`. */
  async function processDirectly(flipId: string, checkId: string, channelId: string, between: () => Promise<unknown>) {
    const config = testNotifyConfig(receiver.url);
    await between();
    const job = { data: { flipId, checkId, channelId }, attemptsMade: 0, opts: {} } as Job;
    return processNotify(job, undefined, { clock: systemClock, config, batch: notifyBatchers(systemClock, leaseMsOf(config)) });
  }
  const start = (overrides = {}) => workers.push(startAlertWorkers(testNotifyConfig(receiver.url, overrides)));
  const settled = () =>
    waitFor('the notification to settle', () => Notification.findOne({ state: { $in: ['delivered', 'failed'] } }).lean<NotificationDoc>(), 15_000);

  it('retries a 500 with backoff, then delivers', async () => {
    await downFlip((n) => (n === 0 ? { status: 500, body: 'oops' } : { status: 200 }));
    start();
    const notification = await settled();
    expect([notification.state, notification.attempts, receiver.requests.length]).to.deep.equal(['delivered', 2, 2]);
    expect(notification.attemptLog.map((a) => a.error)).to.deep.equal(['received status code 500: oops', '']);
  });

  it('retries after a timeout, then delivers', async () => {
    await downFlip((n) => (n === 0 ? 'hang' : { status: 200 }));
    start({ attemptTimeoutMs: 300 });
    const notification = await settled();
    expect(notification.attemptLog.map((a) => a.error)).to.deep.equal(['timed out after 300 ms', '']);
  });

  it('does not retry a 4xx and records the error on the notification and the channel', async () => {
    const { channelId } = await downFlip(() => ({ status: 401, body: 'bad token' }));
    start();
    const notification = await settled();
    expect([notification.state, notification.attempts, notification.error]).to.deep.equal(['failed', 1, 'received status code 401: bad token']);
    const channel = await waitFor('the channel to record the error', () => Channel.findOne({ _id: channelId, lastError: { $ne: '' } }).lean(), 15_000);
    expect(channel.lastError).to.equal('received status code 401: bad token');
  });

  it('gives up after the configured number of attempts', async () => {
    await downFlip(() => ({ status: 503 }));
    start({ attempts: 3 });
    const notification = await settled();
    expect([notification.state, notification.attempts, receiver.requests.length]).to.deep.equal(['failed', 3, 3]);
  });

  it('disables the channel on a permanent error', async () => {
    const { channelId } = await downFlip(() => ({ status: 404 }), { kind: 'slack' });
    start();
    await settled();
    const channel = await waitFor('the channel to be disabled', () => Channel.findOne({ _id: channelId, disabled: true }).lean(), 15_000);
    expect(channel.disabled).to.equal(true);
  });

  it("records the channel's last delivery and clears its last error", async () => {
    const { channelId } = await downFlip(() => ({ status: 200 }));
    await Channel.updateOne({ _id: channelId }, { $set: { lastError: 'old error' } });
    start();
    // The channel is written after the notification is marked delivered: wait for the channel itself.
    const channel = await waitFor('the channel to record the delivery', () => Channel.findOne({ _id: channelId, lastNotify: { $ne: null } }).lean(), 15_000);
    expect([channel.lastError, channel.lastNotify instanceof Date, typeof channel.lastNotifyDurationMs]).to.deep.equal(['', true, 'number']);
  });

  it('does not send again for a job whose notification is delivered', async () => {
    const { flipId, channelId, checkId } = await downFlip(() => ({ status: 200 }));
    start();
    await settled();
    const queue = testContext().queues.notify;
    const jobId = notifyJobId(flipId, channelId);
    await queue.add('notify', { flipId, checkId, channelId }, { jobId, removeOnComplete: true });
    await waitFor('the repeated job to finish', async () => !(await queue.getJob(jobId)));
    expect(receiver.requests.length).to.equal(1);
  });

  it('abandons the alert when the check was paused after the fan-out', async () => {
    const { flipId, channelId, checkId } = await downFlip(() => ({ status: 200 }));
    const outcome = await processDirectly(flipId, checkId, channelId, () => Check.updateOne({ _id: checkId }, { $set: { status: 'paused' } }));
    const notification = await Notification.findOne({ flipId }).lean();
    expect([outcome, notification?.state, notification?.error, receiver.requests.length]).to.deep.equal(['skipped', 'failed', 'check is paused', 0]);
  });

  it('abandons the alert when the channel was deleted after the fan-out', async () => {
    const { flipId, channelId, checkId } = await downFlip(() => ({ status: 200 }));
    await processDirectly(flipId, checkId, channelId, () => Channel.deleteOne({ _id: channelId }));
    expect((await Notification.findOne({ flipId }).lean())?.error).to.equal('channel was deleted');
  });

  it('delivers exactly once when the worker is killed mid-delivery and another takes over', async () => {
    let firstArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
    receiver = await startReceiver((n) => (n === 0 ? (firstArrived(), 'hang') : { status: 200 }));
    const { mongoUri, redisUrl } = testContext().services;
    const child = spawn(process.execPath, [CHILD, mongoUri, redisUrl, JSON.stringify(testNotifyConfig(receiver.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
    await once(child.stdout, 'data');
    const project = await buildProject();
    const ch = await buildChannel(project, { kind: 'webhook', value: `${receiver.url}/hook` });
    const check = await buildCheck(project, { status: 'down', channels: [ch._id] });
    await recordTestFlip(check, { oldStatus: 'up', newStatus: 'down', reason: 'timeout' }, testNotifyConfig(receiver.url));
    await arrived;
    child.kill('SIGKILL');
    await once(child, 'exit');
    start();
    const notification = await settled();
    expect([notification.state, receiver.completed, receiver.requests.length]).to.deep.equal(['delivered', 1, 2]);
    expect(notification.attemptLog.map((a) => a.error)).to.deep.equal([INTERRUPTED, '']);
  });

  it('delivers exactly once when a worker is force-closed mid-delivery and another takes over', async () => {
    let firstArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
    await downFlip((n) => (n === 0 ? (firstArrived(), 'hang') : { status: 200 }));
    start();
    await arrived;
    await workers[0]?.stop(true);
    start();
    const notification = await waitFor('the delivery', () => Notification.findOne({ state: 'delivered' }).lean<NotificationDoc>(), 15_000);
    expect([receiver.completed, receiver.requests.length]).to.deep.equal([1, 2]);
    expect(notification.attempts).to.equal(2);
  });
});
