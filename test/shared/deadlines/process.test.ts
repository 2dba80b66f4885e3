import { expect } from 'chai';
import { UnrecoverableError } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Types } from 'mongoose';
import { Check } from '../../../shared/models/check.js';
import { Flip } from '../../../shared/models/flip.js';
import { pendingDeadline, pendingTimer } from '../../helpers/deadlines.js';
import { systemClock } from '../../../shared/clock.js';
import { Notification } from '../../../shared/models/notification.js';
import { notifyJobId } from '../../../shared/queues/notify.js';
import { scheduleDeadlines } from '../../../shared/deadlines/schedule.js';
import { applyDeadlines, deadlinePayload, deadlineWorker } from '../../../shared/deadlines/process.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { waitFor } from '../../helpers/poll.js';
import { downFlips, ping, queueIdle, startTestWorkers, stored, wentDown, type TestWorkers } from '../../workers/support.js';

const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);

describe('applyDeadlines', () => {
  let project: TestProject;
  const deps = () => ({ queues: testContext().queues, clock: systemClock });

  beforeEach(async () => {
    project = await buildProject();
  });

  it('leaves out a deleted check', async () => {
    const check = await buildCheck(project);
    await Check.deleteOne({ _id: check._id });
    expect((await applyDeadlines(deps(), [check._id])).size).to.equal(0);
  });

  it('does nothing for a check already stored down', async () => {
    const check = await buildCheck(project, { status: 'down', lastPing: secondsAgo(10), timeout: 1, grace: 1 });
    expect((await applyDeadlines(deps(), [check._id])).get(check._id)).to.equal('settled');
    expect(await downFlips(check._id)).to.have.length(0);
    expect((await stored(check._id)).rev).to.equal(0);
  });

  it('does nothing for a new check with no run', async () => {
    const check = await buildCheck(project);
    expect((await applyDeadlines(deps(), [check._id])).get(check._id)).to.equal('settled');
    expect(await pendingTimer(check._id)).to.equal(undefined);
  });

  it('moves the job of a check whose deadline has not passed to its deadline', async () => {
    const check = await buildCheck(project, { status: 'up', lastPing: new Date(), timeout: 60, grace: 60 });
    const at = check.lastPing!.getTime() + 120_000;
    // A job earlier than the deadline (left by an older deadline), still delayed.
    await scheduleDeadlines(testContext().queues.deadlines, [{ checkId: check._id, at: new Date(Date.now() + 30_000) }], new Date());
    const stale = await pendingTimer(check._id);
    const before = Date.now();
    expect((await applyDeadlines(deps(), [check._id])).get(check._id)).to.equal('early');
    const after = Date.now();
    const timer = await pendingTimer(check._id);
    expect(timer?.id).to.not.equal(stale?.id);
    expect(timer?.data).to.deep.equal({ checkId: check._id });
    expect(timer?.delay).to.be.within(at - after, at - before);
    expect(await timer?.getState()).to.equal('delayed');
    expect(await testContext().queues.deadlines.getJobCounts('delayed', 'wait')).to.deep.equal({ delayed: 1, wait: 0 });
    expect(await downFlips(check._id)).to.have.length(0);
  });

  it('stores down an up check past its deadline, dating the flip at the deadline', async () => {
    const lastPing = secondsAgo(10);
    const check = await buildCheck(project, { status: 'up', lastPing, timeout: 2, grace: 3, deadline: secondsAgo(5) });
    expect((await applyDeadlines(deps(), [check._id])).get(check._id)).to.equal('flipped');
    const flips = await downFlips(check._id);
    expect(flips).to.have.length(1);
    expect(flips[0]).to.include({ oldStatus: 'up', reason: 'timeout' });
    expect(flips[0].processed).to.be.an.instanceOf(Date);
    expect(flips[0].created.getTime()).to.equal(lastPing.getTime() + 5_000);
    expect(await stored(check._id)).to.include({ status: 'down', deadline: null, rev: 1 });
  });

  it('flips a due check once when applied again, and twice at once', async () => {
    const check = await buildCheck(project, { status: 'up', lastPing: secondsAgo(10), timeout: 1, grace: 1, deadline: secondsAgo(8) });
    const outcomes = await Promise.all([applyDeadlines(deps(), [check._id]), applyDeadlines(deps(), [check._id, check._id])]);
    expect(outcomes.map((o) => o.get(check._id)).sort()).to.deep.equal(['flipped', 'settled']);
    expect((await applyDeadlines(deps(), [check._id])).get(check._id)).to.equal('settled');
    expect(await downFlips(check._id)).to.have.length(1);
    expect((await stored(check._id)).rev).to.equal(1);
  });

  it('takes a paused check down when its run overran grace', async () => {
    const lastStart = secondsAgo(10);
    const check = await buildCheck(project, { status: 'paused', lastStart, grace: 5, deadline: secondsAgo(5) });
    expect((await applyDeadlines(deps(), [check._id])).get(check._id)).to.equal('flipped');
    const [flip] = await downFlips(check._id);
    expect(flip).to.include({ oldStatus: 'paused', reason: 'timeout' });
    expect(flip.created.getTime()).to.equal(lastStart.getTime() + 5_000);
  });

  it('creates the notification and the notify job of the timeout flip, and empties the outbox', async () => {
    const channel = await buildChannel(project);
    const check = await buildCheck(project, { status: 'up', lastPing: secondsAgo(10), timeout: 1, grace: 1, channels: [channel._id] });
    await applyDeadlines(deps(), [check._id]);
    const [flip] = await downFlips(check._id);
    const flipId = String(flip._id);
    // The first attempt was made (the factory's webhook URL answers nothing): pending again for its job.
    expect(await Notification.countDocuments({ flipId, channelId: channel._id, status: 'down', state: 'pending', attempts: 1 })).to.equal(1);
    const job = await testContext().queues.notify.getJob(notifyJobId(flipId, channel._id));
    expect(job?.data).to.deep.equal({ flipId, checkId: check._id, channelId: channel._id });
    expect((await stored(check._id)).outbox).to.deep.equal([]);
  });

  it('completes the flip a crashed attempt left in the outbox of a check already down, once', async () => {
    const channel = await buildChannel(project);
    const check = await buildCheck(project, { status: 'up', lastPing: secondsAgo(10), timeout: 1, grace: 1, channels: [channel._id] });
    const entry = { _id: new Types.ObjectId(), at: secondsAgo(8), recorded: secondsAgo(7), oldStatus: 'up', newStatus: 'down', reason: 'timeout' };
    await Check.updateOne({ _id: check._id }, { $set: { status: 'down', deadline: null }, $push: { outbox: entry } });
    expect((await applyDeadlines(deps(), [check._id])).get(check._id)).to.equal('settled');
    expect((await applyDeadlines(deps(), [check._id])).get(check._id)).to.equal('settled');
    const flips = await downFlips(check._id);
    expect(flips.map((f) => String(f._id))).to.deep.equal([String(entry._id)]);
    expect(flips[0].created).to.deep.equal(entry.at);
    expect(await Notification.countDocuments({ checkId: check._id, flipId: String(entry._id) })).to.equal(1);
    expect(await testContext().queues.notify.getJob(notifyJobId(String(entry._id), channel._id))).to.not.equal(undefined);
    expect((await stored(check._id)).outbox).to.deep.equal([]);
  });

  it('applies a batch of due, early, settled and missing checks in one call', async () => {
    const due = await Promise.all([1, 2, 3].map(() => buildCheck(project, { status: 'up', lastPing: secondsAgo(10), timeout: 1, grace: 1 })));
    const early = await buildCheck(project, { status: 'up', lastPing: new Date(), timeout: 60, grace: 60 });
    const down = await buildCheck(project, { status: 'down' });
    const outcomes = await applyDeadlines(deps(), [...due.map((c) => c._id), early._id, down._id, 'no-such-check']);
    expect(Object.fromEntries(outcomes)).to.deep.equal({
      ...Object.fromEntries(due.map((c) => [c._id, 'flipped'])),
      [early._id]: 'early',
      [down._id]: 'settled',
    });
    for (const check of due) expect(await downFlips(check._id)).to.have.length(1);
    expect(await pendingTimer(early._id)).to.not.equal(undefined);
  });
});

describe('deadlinePayload', () => {
  it('returns the check id of a well-formed job', () => {
    expect(deadlinePayload({ data: { checkId: 'abc' } })).to.deep.equal({ checkId: 'abc' });
  });

  it('throws UnrecoverableError for a job without a check id', () => {
    for (const data of [null, {}, { checkId: '' }, { checkId: 42 }]) {
      expect(() => deadlinePayload({ data })).to.throw(UnrecoverableError, 'deadline job without a checkId');
    }
  });
});

describe('deadlineWorker', () => {
  let project: TestProject;
  let running: TestWorkers;

  beforeEach(async () => {
    project = await buildProject();
    running = startTestWorkers(deadlineWorker);
  });
  afterEach(async () => running.stop());

  it('stores down at the deadline with one timeout flip dated at the deadline', async () => {
    const check = await buildCheck(project, { timeout: 1, grace: 1 });
    const { deadline } = await ping(check._id);
    expect((await pendingDeadline(check._id))?.getTime()).to.be.within(deadline!.getTime(), deadline!.getTime() + 1_000);
    await wentDown(check._id);
    const flips = await downFlips(check._id);
    expect(flips).to.have.length(1);
    expect(flips[0]).to.include({ oldStatus: 'up', newStatus: 'down', reason: 'timeout' });
    expect(flips[0].created.getTime()).to.equal(deadline?.getTime());
    expect(flips[0].recorded.getTime()).to.be.at.least(flips[0].created.getTime());
    expect((await stored(check._id)).deadline).to.equal(null);
  });

  it('moves the flip to the new deadline when a newer ping arrives first', async () => {
    const check = await buildCheck(project, { timeout: 1, grace: 1 });
    const first = await ping(check._id);
    await sleep(500);
    const second = await ping(check._id);
    await wentDown(check._id);
    const flips = await downFlips(check._id);
    expect(second.deadline?.getTime()).to.be.above(first.deadline?.getTime() ?? Infinity);
    expect(flips.map((f) => f.created.getTime())).to.deep.equal([second.deadline?.getTime()]);
  });

  it('records exactly one flip when the deadline is scheduled many times at once', async () => {
    const lastPing = new Date(Date.now() - 5_000);
    const deadline = new Date(lastPing.getTime() + 2_000);
    const check = await buildCheck(project, { status: 'up', timeout: 1, grace: 1, lastPing, deadline });
    const { deadlines } = testContext().queues;
    await Promise.all([true, false, true, false, true, false].map((replace) => scheduleDeadlines(deadlines, [{ checkId: check._id, at: deadline }], new Date(), replace)));
    await wentDown(check._id);
    await waitFor('the jobs to finish', () => queueIdle(deadlines));
    expect(await downFlips(check._id)).to.have.length(1);
  });

  it('records no second flip when a job fires again after the flip', async () => {
    const check = await buildCheck(project, { timeout: 1, grace: 1 });
    await ping(check._id);
    await wentDown(check._id);
    const { deadlines } = testContext().queues;
    await deadlines.add('deadline', { checkId: check._id });
    await waitFor('the late job to finish', () => queueIdle(deadlines));
    expect(await downFlips(check._id)).to.have.length(1);
    expect((await stored(check._id)).status).to.equal('down');
  });

  it('moves a job that fires before the deadline, and flips at the deadline', async () => {
    const check = await buildCheck(project, { timeout: 1, grace: 1 });
    const { deadline } = await ping(check._id);
    await testContext().redis.flushdb();
    await testContext().queues.deadlines.add('deadline', { checkId: check._id });
    await wentDown(check._id);
    const flips = await downFlips(check._id);
    expect(flips.map((f) => f.created.getTime())).to.deep.equal([deadline?.getTime()]);
  });

  it('takes a new check down when its run overruns grace', async () => {
    const check = await buildCheck(project, { grace: 1 });
    const { lastStart } = await ping(check._id, 'start');
    await wentDown(check._id);
    const flips = await downFlips(check._id);
    expect(flips).to.have.length(1);
    expect(flips[0]).to.include({ oldStatus: 'new', newStatus: 'down', reason: 'timeout' });
    expect(flips[0].created.getTime()).to.equal((lastStart?.getTime() ?? 0) + 1_000);
  });

  it('records no flip for a check paused before its deadline', async () => {
    const check = await buildCheck(project, { timeout: 1, grace: 1 });
    await ping(check._id);
    await Check.updateOne({ _id: check._id }, { $set: { status: 'paused', lastStart: null, deadline: null } });
    await waitFor('the deadline job to run', () => queueIdle(testContext().queues.deadlines));
    expect(await downFlips(check._id)).to.have.length(0);
    expect((await stored(check._id)).status).to.equal('paused');
  });

  it('takes 200 checks due in the same instant down, each exactly once, and leaves no job', async function () {
    this.timeout(90_000);
    const deadline = new Date(Date.now() + 3_000);
    const lastPing = new Date(deadline.getTime() - 61_000);
    const fields = { projectId: project.project._id, status: 'up', timeout: 60, grace: 1, lastPing, deadline, created: lastPing };
    const ids = Array.from({ length: 200 }, () => randomUUID());
    await Check.insertMany(ids.map((_id) => ({ ...fields, _id, badgeKey: randomUUID() })));
    const { deadlines } = testContext().queues;
    await scheduleDeadlines(deadlines, ids.map((checkId) => ({ checkId, at: deadline })), new Date());

    await waitFor('every check down', async () => (await Check.countDocuments({ _id: { $in: ids }, status: 'down' })) === ids.length, 60_000);
    await waitFor('the jobs to finish', () => queueIdle(deadlines), 20_000);
    const flips = await Flip.find({ checkId: { $in: ids } }, { checkId: 1, created: 1, newStatus: 1 }).lean();
    expect(flips).to.have.length(ids.length);
    expect(new Set(flips.map((f) => f.checkId)).size).to.equal(ids.length);
    expect(flips.every((f) => f.newStatus === 'down' && f.created.getTime() === deadline.getTime())).to.equal(true);
    expect(await Check.countDocuments({ _id: { $in: ids }, rev: 1, outbox: { $size: 0 } })).to.equal(ids.length);
  });

  it('completes an owed entry a crash left on a check already down when its job runs', async () => {
    const channel = await buildChannel(project);
    const check = await buildCheck(project, { status: 'up', lastPing: secondsAgo(10), timeout: 1, grace: 1, channels: [channel._id] });
    const entry = { _id: new Types.ObjectId(), at: secondsAgo(8), recorded: secondsAgo(1), oldStatus: 'up', newStatus: 'down', reason: 'timeout' };
    await Check.updateOne({ _id: check._id }, { $set: { status: 'down', deadline: null }, $push: { outbox: entry } });
    // The crashed attempt's retry.
    await testContext().queues.deadlines.add('deadline', { checkId: check._id });
    await waitFor('the outbox to be emptied', async () => (await stored(check._id)).outbox.length === 0);
    expect((await downFlips(check._id)).map((f) => String(f._id))).to.deep.equal([String(entry._id)]);
    expect(await Notification.countDocuments({ flipId: String(entry._id), channelId: channel._id })).to.equal(1);
  });

  it('fails a job without a check id at once, without retries', async () => {
    const job = await testContext().queues.deadlines.add('deadline', {} as { checkId: string }, { attempts: 3 });
    await waitFor('the job to fail', async () => (await job.getState()) === 'failed');
    const failed = await testContext().queues.deadlines.getJob(String(job.id));
    expect(failed?.attemptsMade).to.equal(1);
    expect(failed?.failedReason).to.equal('deadline job without a checkId');
  });
});
