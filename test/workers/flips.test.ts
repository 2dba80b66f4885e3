import { expect } from 'chai';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { Flip } from '../../shared/models/flip.js';
import { Notification } from '../../shared/models/notification.js';
import { flipJobId, recordFlip } from '../../shared/services/flips.js';
import type { FlipChange } from '../../shared/domain/status.js';
import { processFlip } from '../../workers/flips.js';
import { deadlineWorker } from '../../workers/deadlines.js';
import { scheduleDeadline } from '../../shared/queues/deadlines.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { jsonBody, startReceiver, type Receiver } from '../helpers/receiver.js';
import { startAlertWorkers, testNotifyConfig, type TestAlertWorkers } from '../helpers/alerts.js';
import { waitFor } from '../helpers/poll.js';

const DOWN: FlipChange = { oldStatus: 'up', newStatus: 'down', reason: 'timeout' };
const UP: FlipChange = { oldStatus: 'down', newStatus: 'up', reason: '' };

describe('workers/flips (fan-out of flips to channels)', () => {
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
  const flip = (check: CheckDoc, change: FlipChange) => recordFlip(testContext().queues, check, change, new Date(), new Date());
  const start = () => (workers = startAlertWorkers(testNotifyConfig(receiver.url)));
  const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);
  /** Resolves once the flip's fan-out job ran to the end. */
  const fannedOut = (flipId: string) =>
    waitFor('the fan-out to finish', async () => Boolean((await Flip.findById(flipId))?.processed) && !(await testContext().queues.flips.getJob(flipJobId(flipId))));
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
    await scheduleDeadline(testContext().queues.deadlines, check._id, secondsAgo(8));
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

  it('sends nothing when the check is paused by the time the flip is processed', async () => {
    const check = await buildCheck(project, { status: 'down', channels: [(await webhook())._id] });
    const flipId = await flip(check, DOWN);
    await Check.updateOne({ _id: check._id }, { $set: { status: 'paused' } });
    start();
    await fannedOut(flipId);
    expect([await Notification.countDocuments(), receiver.requests.length]).to.deep.equal([0, 0]);
  });

  it('skips disabled channels and channels turned off for the direction', async () => {
    const on = await webhook();
    const disabled = await webhook({ disabled: true });
    const downOff = await webhook({ value: JSON.stringify({ url: `${receiver.url}/hook`, down: false }) });
    const check = await buildCheck(project, { status: 'down', channels: [on._id, disabled._id, downOff._id] });
    start();
    await fannedOut(await flip(check, DOWN));
    await delivered(1);
    expect((await Notification.find().lean()).map((n) => n.channelId)).to.deep.equal([on._id]);
  });

  it('enqueues the fan-out with retries, since a failed fan-out has already claimed the flip', async () => {
    const check = await buildCheck(project, { status: 'down', channels: [(await webhook())._id] });
    const job = await testContext().queues.flips.getJob(flipJobId(await flip(check, DOWN)));
    expect([job?.opts.attempts, job?.opts.backoff]).to.deep.equal([5, { type: 'exponential', delay: 1000 }]);
  });

  it('fans out once when a crashed attempt is retried', async () => {
    const channels = [await webhook(), await webhook()];
    const check = await buildCheck(project, { status: 'down', channels: channels.map((c) => c._id) });
    const flipId = await flip(check, DOWN);
    const notifyQueue = testContext().queues.notify;
    const deps = { clock: () => new Date(), notifyQueue, config: testNotifyConfig(receiver.url) };
    await processFlip({ data: { flipId } }, deps);
    await processFlip({ data: { flipId } }, deps);
    expect([await notifyQueue.count(), await Notification.countDocuments({ flipId })]).to.deep.equal([2, 2]);
  });
});
