import { expect } from 'chai';
import { systemClock } from '../../../shared/clock.js';
import { applyDeadlines } from '../../../shared/deadlines/process.js';
import { leaseMsOf } from '../../../shared/alerts/notify.js';
import { Notification, type NotificationDoc } from '../../../shared/models/notification.js';
import { notifyJobId } from '../../../shared/queues/notify.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { jsonBody, startReceiver, type Receiver } from '../../helpers/receiver.js';
import { startAlertWorkers, testNotifyConfig, type TestAlertWorkers } from '../../helpers/alerts.js';
import { waitFor } from '../../helpers/poll.js';
import { downFlips } from '../../workers/support.js';

const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);

describe("the deadline worker's first attempt of a timeout flip's alerts (shared/alerts/first-attempt.ts)", () => {
  let project: TestProject;
  let receiver: Receiver | undefined;
  let workers: TestAlertWorkers | undefined;

  beforeEach(async () => {
    project = await buildProject();
  });
  afterEach(async () => {
    await workers?.stop();
    workers = undefined;
    await receiver?.close();
  });

  /** A check past its deadline with a webhook to `receiver`, and the notify settings pointing there. */
  async function dueCheck(r: Receiver, attempts = 3) {
    const channel = await buildChannel(project, { kind: 'webhook', value: `${r.url}/hook` });
    const check = await buildCheck(project, { status: 'up', lastPing: secondsAgo(10), timeout: 1, grace: 1, channels: [channel._id] });
    return { check, channel, notify: testNotifyConfig(r.url, { attempts }) };
  }

  async function notificationOf(checkId: string): Promise<NotificationDoc> {
    const [n] = await Notification.find({ checkId }).lean<NotificationDoc[]>();
    return n;
  }

  it('delivers the alert itself, with no notify worker running, and leaves the notify job waiting for the lease to end', async () => {
    receiver = await startReceiver();
    const { check, channel, notify } = await dueCheck(receiver);
    const before = Date.now();
    await applyDeadlines({ queues: testContext().queues, clock: systemClock, notify }, [check._id]);
    expect(receiver.requests.map((r) => jsonBody(r).status)).to.deep.equal(['down']);
    const notification = await notificationOf(check._id);
    expect([notification.state, notification.attempts, notification.claimToken]).to.deep.equal(['delivered', 1, null]);
    const job = await testContext().queues.notify.getJob(notifyJobId(notification.flipId, channel._id));
    expect(await job?.isDelayed()).to.equal(true);
    expect(job!.timestamp + job!.opts.delay!).to.be.within(before + leaseMsOf(notify), Date.now() + leaseMsOf(notify));
  });

  it('when the notify job runs after a delivered first attempt, it sends nothing more', async () => {
    receiver = await startReceiver();
    const { check, notify } = await dueCheck(receiver);
    await applyDeadlines({ queues: testContext().queues, clock: systemClock, notify }, [check._id]);
    workers = startAlertWorkers(notify);
    await waitFor('the notify job to be done', async () => (await testContext().queues.notify.getJobCounts('delayed', 'wait', 'active')).delayed === 0, 10_000);
    await waitFor('the notify queue to be idle', async () => Object.values(await testContext().queues.notify.getJobCounts('wait', 'active')).every((n) => n === 0), 5_000);
    expect(receiver.requests).to.have.length(1);
    expect((await notificationOf(check._id)).attempts).to.equal(1);
  });

  it('after a failed first attempt, the notify job retries at the backoff, counting the first attempt', async () => {
    receiver = await startReceiver((n) => (n === 0 ? { status: 500 } : { status: 200 }));
    const { check, notify } = await dueCheck(receiver);
    await applyDeadlines({ queues: testContext().queues, clock: systemClock, notify }, [check._id]);
    const failed = await notificationOf(check._id);
    expect([failed.state, failed.attempts]).to.deep.equal(['pending', 1]);
    workers = startAlertWorkers(notify);
    // The lease (2 s) is longer than this wait: only the moved job can deliver in time.
    await waitFor('the retry', async () => (await notificationOf(check._id)).state === 'delivered', leaseMsOf(notify) - 500);
    const delivered = await notificationOf(check._id);
    expect(delivered.attempts).to.equal(2);
    expect(receiver.requests).to.have.length(2);
  });

  it('gives up after NOTIFY_ATTEMPTS attempts in all, the first one included', async () => {
    receiver = await startReceiver(() => ({ status: 500 }));
    const { check, notify } = await dueCheck(receiver, 2);
    await applyDeadlines({ queues: testContext().queues, clock: systemClock, notify }, [check._id]);
    workers = startAlertWorkers(notify);
    await waitFor('the notification to fail', async () => (await notificationOf(check._id)).state === 'failed', 10_000);
    expect((await notificationOf(check._id)).attempts).to.equal(2);
    expect(receiver.requests).to.have.length(2);
  });
});

describe('applyDeadlines takes every check due, not only its own jobs', () => {
  it('one job takes all checks past their deadline down in one pass, with one flip each', async () => {
    const project = await buildProject();
    const due = { status: 'up' as const, lastPing: secondsAgo(10), timeout: 1, grace: 1, deadline: secondsAgo(8) };
    const checks = await Promise.all(Array.from({ length: 20 }, () => buildCheck(project, due)));
    const notDue = await buildCheck(project, { status: 'up', lastPing: new Date(), timeout: 60, grace: 60, deadline: new Date(Date.now() + 120_000) });
    const outcomes = await applyDeadlines({ queues: testContext().queues, clock: systemClock }, [checks[0]._id]);
    expect(checks.every((c) => outcomes.get(c._id) === 'flipped')).to.equal(true);
    expect(outcomes.has(notDue._id)).to.equal(false);
    for (const check of checks) expect(await downFlips(check._id)).to.have.length(1);
    const again = await applyDeadlines({ queues: testContext().queues, clock: systemClock }, checks.map((c) => c._id));
    expect([...again.values()].every((o) => o === 'settled')).to.equal(true);
  });
});
