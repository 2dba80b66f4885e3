import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { Check } from '../../shared/models/check.js';
import { Notification } from '../../shared/models/notification.js';
import { deadlineIndexKey, pendingDeadline, redisOf, scheduleDeadline, timerOf } from '../../shared/queues/deadlines.js';
import { indexedDeadlines, pendingTimer } from '../helpers/deadlines.js';
import { notifyJobId } from '../../shared/queues/notify.js';
import { systemClock } from '../../shared/clock.js';
import { deadlineWorker } from '../../workers/deadlines.js';
import { runSweep } from '../../workers/sweep.js';
import { completeOutbox } from '../../shared/services/outbox.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { TEST_SWEEP_INTERVAL_MS, downFlips, ping, startTestWorkers, wentDown } from './support.js';

describe('runSweep', () => {
  let project: TestProject;
  const deps = () => ({ queues: testContext().queues, clock: systemClock, settings: { deadlineConcurrency: 1, sweepIntervalMs: TEST_SWEEP_INTERVAL_MS } });
  const inMs = (ms: number) => new Date(Date.now() + ms);
  const pending = (checkId: string) => pendingDeadline(testContext().queues.deadlines, checkId);
  const indexed = indexedDeadlines;
  const pendingJobs = async () => {
    const counts = await testContext().queues.deadlines.getJobCounts('delayed', 'wait');
    return counts.delayed + counts.wait;
  };
  /** A check stored down whose flip was left in its outbox, written at `recorded`. */
  const owingCheck = async (recorded: Date, channels: string[] = []) => {
    const entry = { _id: new Types.ObjectId(), at: recorded, recorded, oldStatus: 'up', newStatus: 'down', reason: 'timeout' };
    return buildCheck(project, { status: 'down', lastPing: inMs(-600_000), channels, outbox: [entry] as never });
  };

  beforeEach(async () => {
    project = await buildProject();
  });

  it('re-creates a deadline job lost in a Redis flush, and the flip still happens', async () => {
    const check = await buildCheck(project, { timeout: 1, grace: 1 });
    const { deadline } = await ping(check._id);
    await testContext().redis.flushdb();
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 1, flips: 0, notifications: 0 });
    const running = startTestWorkers(deadlineWorker);
    try {
      await wentDown(check._id);
    } finally {
      await running.stop();
    }
    expect((await downFlips(check._id)).map((f) => f.created.getTime())).to.deep.equal([deadline?.getTime()]);
  });

  it('wakes a drain for a check overdue whose timer is later than its entry (left by two racing schedules)', async () => {
    const deadline = inMs(-15_000);
    const check = await buildCheck(project, { status: 'up', timeout: 60, grace: 1, lastPing: new Date(deadline.getTime() - 61_000), deadline });
    const { deadlines } = testContext().queues;
    await redisOf(deadlines).zadd(deadlineIndexKey(deadlines), deadline.getTime(), check._id);
    await deadlines.addBulk([timerOf({ checkId: check._id, at: inMs(3_600_000) }, new Date(), true)]);
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 1, flips: 0, notifications: 0 });
    expect((await pendingTimer(check._id))?.data.at).to.be.above(Date.now() + 3_000_000);
    const running = startTestWorkers(deadlineWorker);
    try {
      await wentDown(check._id);
    } finally {
      await running.stop();
    }
    expect((await downFlips(check._id)).map((f) => f.created.getTime())).to.deep.equal([deadline.getTime()]);
  });

  it('leaves checks due after two sweep intervals to their own job', async () => {
    const check = await buildCheck(project, { status: 'up', lastPing: new Date(), deadline: inMs(3 * TEST_SWEEP_INTERVAL_MS) });
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 0, notifications: 0 });
    expect(await pending(check._id)).to.equal(null);
  });

  it('skips checks stored down', async () => {
    await buildCheck(project, { status: 'down', lastPing: new Date(), deadline: new Date() });
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 0, notifications: 0 });
  });

  it('keeps one pending deadline and one timer per check when it runs twice', async () => {
    const deadline = inMs(1_000);
    const check = await buildCheck(project, { status: 'up', lastPing: new Date(), deadline });
    await runSweep(deps());
    await runSweep(deps());
    expect((await pending(check._id))?.getTime()).to.equal(deadline.getTime());
    expect([await indexed(), await pendingJobs()]).to.deep.equal([1, 1]);
  });

  it('walks more checks than one cursor batch', async () => {
    const fields = { projectId: project.project._id, status: 'up', lastPing: new Date(), deadline: inMs(1_000), created: new Date() };
    await Check.insertMany(Array.from({ length: 450 }, () => ({ ...fields, _id: randomUUID(), badgeKey: randomUUID() })));
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 450, flips: 0, notifications: 0 });
    expect([await indexed(), await pendingJobs()]).to.deep.equal([450, 450]);
  });

  it('completes a flip left in an outbox: flip, notification and notify job written once, outbox emptied', async () => {
    const channel = await buildChannel(project);
    const check = await owingCheck(inMs(-11_000), [channel._id]);
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 1, notifications: 0 });
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 0, notifications: 0 });
    const flips = await downFlips(check._id);
    expect(flips).to.have.length(1);
    const flipId = String(flips[0]!._id);
    expect(await Notification.countDocuments({ flipId, channelId: channel._id })).to.equal(1);
    expect(await testContext().queues.notify.getJob(notifyJobId(flipId, channel._id))).to.not.equal(undefined);
    expect((await Check.findById(check._id).lean())!.outbox).to.deep.equal([]);
  });

  it('only pulls an outbox entry whose flip is stored (completed by a ping, pull left to the sweep): no second notify job', async () => {
    const channel = await buildChannel(project);
    const check = await owingCheck(inMs(-11_000), [channel._id]);
    const queues = testContext().queues;
    await completeOutbox({ queues, notify: { attempts: 1, backoffMs: 1000 }, pull: false }, [{ check, entry: check.outbox[0]! }], new Date());
    const flipId = String(check.outbox[0]!._id);
    await queues.notify.remove(notifyJobId(flipId, channel._id));
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 1, notifications: 0 });
    expect(await queues.notify.getJob(notifyJobId(flipId, channel._id))).to.equal(undefined);
    expect([(await downFlips(check._id)).length, await Notification.countDocuments({ flipId })]).to.deep.equal([1, 1]);
    expect((await Check.findById(check._id).lean())!.outbox).to.deep.equal([]);
  });

  it('leaves an outbox entry younger than ten seconds to the process that wrote it', async () => {
    const check = await owingCheck(new Date());
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 0, notifications: 0 });
    expect((await Check.findById(check._id).lean())!.outbox).to.have.length(1);
  });

  it('leaves a pending deadline and timer that match the stored deadline as they are (same timer job)', async () => {
    const stored = inMs(1_000);
    const check = await buildCheck(project, { status: 'up', lastPing: new Date(), deadline: stored });
    await scheduleDeadline(testContext().queues.deadlines, check._id, stored);
    const before = await pendingTimer(check._id);
    await runSweep(deps());
    expect((await pending(check._id))?.getTime()).to.equal(stored.getTime());
    expect((await pendingTimer(check._id))?.id).to.equal(before?.id);
  });

  it('moves an index entry and timer later than the stored deadline to it (an alert must not be late)', async () => {
    const stored = inMs(1_000);
    const check = await buildCheck(project, { status: 'up', lastPing: new Date(), deadline: stored });
    await scheduleDeadline(testContext().queues.deadlines, check._id, inMs(60_000));
    await runSweep(deps());
    expect((await pending(check._id))?.getTime()).to.equal(stored.getTime());
    expect((await pendingTimer(check._id))?.data.at).to.equal(stored.getTime());
  });
});
