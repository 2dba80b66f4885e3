import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { Check } from '../../../shared/models/check.js';
import { Notification } from '../../../shared/models/notification.js';
import { scheduleDeadlines } from '../../../shared/deadlines/schedule.js';
import { pendingDeadline, pendingTimer } from '../../helpers/deadlines.js';
import { notifyJobId } from '../../../shared/queues/notify.js';
import { systemClock } from '../../../shared/clock.js';
import { deadlineWorker } from '../../../shared/deadlines/process.js';
import { OWED_STALE_MS, runSweep } from '../../../shared/deadlines/sweep.js';
import { completeOwed } from '../../../shared/alerts/outbox.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { TEST_SWEEP_INTERVAL_MS, downFlips, ping, startTestWorkers, stored, wentDown } from '../../workers/support.js';

describe('runSweep', () => {
  let project: TestProject;
  const deps = () => ({ queues: testContext().queues, clock: systemClock, settings: { deadlineConcurrency: 1, sweepIntervalMs: TEST_SWEEP_INTERVAL_MS } });
  const inMs = (ms: number) => new Date(Date.now() + ms);
  const pendingJobs = async () => {
    const counts = await testContext().queues.deadlines.getJobCounts('delayed', 'wait');
    return counts.delayed + counts.wait;
  };
  /** A check stored down whose flip was left in its outbox, written at `recorded`. */
  const owingCheck = async (recorded: Date, channels: string[] = []) => {
    const entry = { _id: new Types.ObjectId(), at: recorded, recorded, oldStatus: 'up', newStatus: 'down', reason: 'timeout' };
    return buildCheck(project, { status: 'down', lastPing: inMs(-600_000), channels, outbox: [entry] as never });
  };
  /** Runs the deadline worker until the check is down. */
  const untilDown = async (checkId: string) => {
    const running = startTestWorkers(deadlineWorker);
    try {
      await wentDown(checkId);
    } finally {
      await running.stop();
    }
  };

  beforeEach(async () => {
    project = await buildProject();
  });

  it('re-creates a deadline job lost in a Redis flush, and the flip still happens', async () => {
    const check = await buildCheck(project, { timeout: 1, grace: 1 });
    const { deadline } = await ping(check._id);
    await testContext().redis.flushdb();
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 1, flips: 0, notifications: 0 });
    await untilDown(check._id);
    expect((await downFlips(check._id)).map((f) => f.created.getTime())).to.deep.equal([deadline?.getTime()]);
  });

  it('adds back a lost deadline job (removed from the queue) of a check due within the horizon, due at its deadline', async () => {
    const check = await buildCheck(project, { timeout: 1, grace: 1 });
    const { deadline } = await ping(check._id);
    await (await pendingTimer(check._id))!.remove();
    expect(await pendingTimer(check._id)).to.equal(undefined);
    const before = Date.now();
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 1, flips: 0, notifications: 0 });
    const timer = await pendingTimer(check._id);
    expect(timer?.data).to.deep.equal({ checkId: check._id });
    expect(timer?.delay).to.be.within(deadline!.getTime() - Date.now(), deadline!.getTime() - before);
    await untilDown(check._id);
    expect((await downFlips(check._id)).map((f) => f.created.getTime())).to.deep.equal([deadline?.getTime()]);
  });

  it('replaces the job of a check overdue by more than ten seconds with one due now (its job was late or lost)', async () => {
    const deadline = inMs(-15_000);
    const check = await buildCheck(project, { status: 'up', timeout: 60, grace: 1, lastPing: new Date(deadline.getTime() - 61_000), deadline });
    // A job far later than the stored deadline.
    await scheduleDeadlines(testContext().queues.deadlines, [{ checkId: check._id, at: inMs(3_600_000) }], new Date());
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 1, flips: 0, notifications: 0 });
    const timer = await pendingTimer(check._id);
    expect(timer?.delay).to.equal(0);
    expect((await pendingDeadline(check._id))!.getTime()).to.be.at.most(Date.now());
    expect(await pendingJobs()).to.equal(1);
    await untilDown(check._id);
    expect((await downFlips(check._id)).map((f) => f.created.getTime())).to.deep.equal([deadline.getTime()]);
  });

  it('adds a job due now for a check overdue by more than ten seconds that has none', async () => {
    const deadline = inMs(-(OWED_STALE_MS + 5_000));
    const check = await buildCheck(project, { status: 'up', timeout: 60, grace: 1, lastPing: new Date(deadline.getTime() - 61_000), deadline });
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 1, flips: 0, notifications: 0 });
    expect((await pendingTimer(check._id))?.delay).to.equal(0);
  });

  it('leaves checks due after two sweep intervals to their own job', async () => {
    const check = await buildCheck(project, { status: 'up', lastPing: new Date(), deadline: inMs(3 * TEST_SWEEP_INTERVAL_MS) });
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 0, notifications: 0 });
    expect(await pendingDeadline(check._id)).to.equal(null);
  });

  it('skips checks stored down', async () => {
    await buildCheck(project, { status: 'down', lastPing: new Date(), deadline: new Date() });
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 0, notifications: 0 });
    expect(await pendingJobs()).to.equal(0);
  });

  it('keeps one pending job per check when it runs twice', async () => {
    const deadline = inMs(1_000);
    const check = await buildCheck(project, { status: 'up', lastPing: new Date(), deadline });
    await runSweep(deps());
    const first = await pendingTimer(check._id);
    await runSweep(deps());
    expect((await pendingTimer(check._id))?.id).to.equal(first?.id);
    expect((await pendingDeadline(check._id))?.getTime()).to.be.within(deadline.getTime(), deadline.getTime() + 1_000);
    expect(await pendingJobs()).to.equal(1);
  });

  it('walks more checks than one cursor batch', async function () {
    this.timeout(60_000);
    const fields = { projectId: project.project._id, status: 'up', lastPing: new Date(), deadline: inMs(1_500), created: new Date() };
    await Check.insertMany(Array.from({ length: 1_050 }, () => ({ ...fields, _id: randomUUID(), badgeKey: randomUUID() })));
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 1_050, flips: 0, notifications: 0 });
    expect(await pendingJobs()).to.equal(1_050);
  });

  it('completes a flip left in an outbox for more than ten seconds: flip, notification and notify job written once, outbox emptied', async () => {
    const channel = await buildChannel(project);
    const check = await owingCheck(inMs(-11_000), [channel._id]);
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 1, notifications: 0 });
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 0, notifications: 0 });
    const flips = await downFlips(check._id);
    expect(flips.map((f) => String(f._id))).to.deep.equal([String(check.outbox[0]._id)]);
    const flipId = String(flips[0]._id);
    expect(await Notification.countDocuments({ flipId, channelId: channel._id })).to.equal(1);
    expect(await testContext().queues.notify.getJob(notifyJobId(flipId, channel._id))).to.not.equal(undefined);
    expect((await stored(check._id)).outbox).to.deep.equal([]);
  });

  it('completes only the entries older than ten seconds of a check owing several', async () => {
    const check = await owingCheck(inMs(-11_000));
    const young = { _id: new Types.ObjectId(), at: new Date(), recorded: new Date(), oldStatus: 'down', newStatus: 'up', reason: '' };
    await Check.updateOne({ _id: check._id }, { $push: { outbox: young } });
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 1, notifications: 0 });
    expect((await stored(check._id)).outbox.map((e) => String(e._id))).to.deep.equal([String(young._id)]);
    expect((await downFlips(check._id)).map((f) => String(f._id))).to.deep.equal([String(check.outbox[0]._id)]);
  });

  it('finishes an entry whose completion crashed before the pull: the flip and notification stay single', async () => {
    const channel = await buildChannel(project);
    const check = await owingCheck(inMs(-11_000), [channel._id]);
    const { queues } = testContext();
    const entry = check.outbox[0];
    await completeOwed({ queues, notify: { attempts: 1, backoffMs: 1000 } }, [{ check, entry }], new Date());
    // As if the pull had not happened: the entry is still owed.
    await Check.updateOne({ _id: check._id }, { $push: { outbox: entry } });
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 1, notifications: 0 });
    const flipId = String(entry._id);
    expect([(await downFlips(check._id)).length, await Notification.countDocuments({ flipId })]).to.deep.equal([1, 1]);
    expect(await queues.notify.getJob(notifyJobId(flipId, channel._id))).to.not.equal(undefined);
    expect((await stored(check._id)).outbox).to.deep.equal([]);
  });

  it('leaves an outbox entry younger than ten seconds to the process that wrote it', async () => {
    const check = await owingCheck(new Date());
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 0, notifications: 0 });
    expect((await stored(check._id)).outbox).to.have.length(1);
  });

  it('leaves a pending job that matches the stored deadline as it is (same job)', async () => {
    const deadline = inMs(1_000);
    const check = await buildCheck(project, { status: 'up', lastPing: new Date(), deadline });
    await scheduleDeadlines(testContext().queues.deadlines, [{ checkId: check._id, at: deadline }], new Date());
    const before = await pendingTimer(check._id);
    await runSweep(deps());
    expect((await pendingTimer(check._id))?.id).to.equal(before?.id);
    expect((await pendingTimer(check._id))?.delay).to.equal(before?.delay);
    expect(await pendingJobs()).to.equal(1);
  });
});
