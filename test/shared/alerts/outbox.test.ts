import { expect } from 'chai';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { Flip } from '../../../shared/models/flip.js';
import { Notification } from '../../../shared/models/notification.js';
import type { FlipChange } from '../../../shared/domain/status.js';
import { completeOwed } from '../../../shared/alerts/outbox.js';
import { owedFlip } from '../../../shared/checks/store.js';
import { recordTestFlip } from '../../helpers/flips.js';
import { deadlineWorker } from '../../../shared/deadlines/process.js';
import { scheduleDeadlines } from '../../../shared/deadlines/schedule.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { jsonBody, startReceiver, type Receiver } from '../../helpers/receiver.js';
import { startAlertWorkers, testNotifyConfig, type TestAlertWorkers } from '../../helpers/alerts.js';
import { waitFor } from '../../helpers/poll.js';

const DOWN: FlipChange = { oldStatus: 'up', newStatus: 'down', reason: 'timeout' };
const UP: FlipChange = { oldStatus: 'down', newStatus: 'up', reason: '' };

describe('completing owed flips (shared/alerts/outbox.ts) and delivery', () => {
  let receiver: Receiver;
  let workers: TestAlertWorkers | undefined;
  let project: TestProject;

  beforeEach(async () => {
    receiver = await startReceiver();
    project = await buildProject();
  });
  afterEach(async () => {
    await workers?.stop();
    workers = undefined;
    await receiver.close();
  });

  const webhook = (fields = {}) => buildChannel(project, { kind: 'webhook', value: `${receiver.url}/hook`, ...fields });
  const flip = (check: CheckDoc, change: FlipChange) => recordTestFlip(check, change, testNotifyConfig(receiver.url));
  const start = () => (workers = startAlertWorkers(testNotifyConfig(receiver.url)));
  const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);
  const delivered = (count: number) =>
    waitFor(`${count} delivered notifications`, async () => (await Notification.countDocuments({ state: 'delivered' })) === count);

  it('sends one alert per channel when a check goes down', async () => {
    const channels = [await webhook(), await buildChannel(project, { kind: 'slack', value: `${receiver.url}/slack` })];
    const check = await buildCheck(project, { status: 'down', channels: channels.map((c) => c._id) });
    start();
    await flip(check, DOWN);
    await delivered(2);
    expect(receiver.requests.map((r) => r.url).sort()).to.deep.equal(['/hook', '/slack']);
  });

  it('sends status "up" when a check recovers from down', async () => {
    const check = await buildCheck(project, { status: 'up', channels: [(await webhook())._id] });
    start();
    await flip(check, UP);
    await delivered(1);
    expect(jsonBody(receiver.requests[0])).to.include({ uuid: check._id, status: 'up' });
  });

  it('alerts when the deadline worker takes a check down', async () => {
    const check = await buildCheck(project, { status: 'up', timeout: 1, grace: 1, lastPing: secondsAgo(10), deadline: secondsAgo(8), channels: [(await webhook())._id] });
    workers = startAlertWorkers(testNotifyConfig(receiver.url), deadlineWorker);
    await scheduleDeadlines(testContext().queues.deadlines, [{ checkId: check._id, at: secondsAgo(8) }], new Date());
    await delivered(1);
    expect(jsonBody(receiver.requests[0])).to.include({ uuid: check._id, status: 'down', reason: 'timeout' });
  });

  it('sends nothing for new→up', async () => {
    const check = await buildCheck(project, { status: 'down', channels: [(await webhook())._id] });
    start();
    await flip(check, { oldStatus: 'new', newStatus: 'up', reason: '' });
    await flip(check, DOWN);
    await delivered(1);
    expect(receiver.requests.map((r) => jsonBody(r).status)).to.deep.equal(['down']);
  });

  it('creates no notification when the check is paused by the time the flip completes', async () => {
    const check = await buildCheck(project, { status: 'paused', channels: [(await webhook())._id] });
    const flipId = await flip(check, DOWN);
    expect(await Flip.findById(flipId).lean()).to.include({ newStatus: 'down' });
    expect(await Notification.countDocuments()).to.equal(0);
  });

  it('sends nothing when the check is paused by the time the alert is sent', async () => {
    const check = await buildCheck(project, { status: 'down', channels: [(await webhook())._id] });
    await flip(check, DOWN);
    await Check.updateOne({ _id: check._id }, { $set: { status: 'paused' } });
    start();
    const notification = await waitFor('the alert to be abandoned', () => Notification.findOne({ state: 'failed' }).lean());
    expect([notification.error, receiver.requests.length]).to.deep.equal(['check is paused', 0]);
  });

  it('skips disabled channels and channels turned off for the direction', async () => {
    const on = await webhook();
    const disabled = await webhook({ disabled: true });
    const downOff = await webhook({ value: JSON.stringify({ url: `${receiver.url}/hook`, down: false }) });
    const check = await buildCheck(project, { status: 'down', channels: [on._id, disabled._id, downOff._id] });
    start();
    await flip(check, DOWN);
    await delivered(1);
    expect((await Notification.find().lean()).map((n) => n.channelId)).to.deep.equal([on._id]);
  });

  it('writes the flip and its notifications once when a crashed completion is repeated', async () => {
    const channels = [await webhook(), await webhook()];
    const check = await buildCheck(project, { status: 'down', channels: channels.map((c) => c._id) });
    const now = new Date();
    const entry = owedFlip(DOWN, now, now);
    await Check.updateOne({ _id: check._id }, { $push: { outbox: entry } });
    const deps = { queues: testContext().queues, notify: testNotifyConfig(receiver.url) };
    expect(await completeOwed(deps, [{ check, entry }], now)).to.equal(2);
    expect(await completeOwed(deps, [{ check, entry }], now)).to.equal(0);
    const counts = [await testContext().queues.notify.count(), await Notification.countDocuments(), await Flip.countDocuments({ checkId: check._id })];
    expect(counts).to.deep.equal([2, 2, 1]);
    expect((await Check.findById(check._id).lean())!.outbox).to.deep.equal([]);
  });
});
