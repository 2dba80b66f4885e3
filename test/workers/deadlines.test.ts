import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { Check } from '../../shared/models/check.js';
import { randomUUID } from 'node:crypto';
import { Flip } from '../../shared/models/flip.js';
import { deadlineIndexKey, redisOf, scheduleDeadline, scheduleDeadlines, timerOf } from '../../shared/queues/deadlines.js';
import { indexedDeadlines } from '../helpers/deadlines.js';
import { deadlineWorker } from '../../workers/deadlines.js';
import { buildCheck, buildProject, type TestProject } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { waitFor } from '../helpers/poll.js';
import { downFlips, ping, queueIdle, startTestWorkers, stored, wentDown, type TestWorkers } from './support.js';

describe('deadlines worker', () => {
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
    await Promise.all([1, 2, 3, 4, 5, 6].map(() => scheduleDeadline(deadlines, check._id, deadline)));
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

  it('reschedules a job that fires before the deadline, and flips at the deadline', async () => {
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

  it('takes checks due in the same instant down, each once, and empties the index', async function () {
    this.timeout(60_000);
    const deadline = new Date(Date.now() + 1_500);
    const lastPing = new Date(deadline.getTime() - 61_000);
    const fields = { projectId: project.project._id, status: 'up', timeout: 60, grace: 1, lastPing, deadline, created: lastPing };
    const ids = Array.from({ length: 100 }, () => randomUUID());
    await Check.insertMany(ids.map((_id) => ({ ...fields, _id, badgeKey: randomUUID() })));
    const { deadlines } = testContext().queues;
    await scheduleDeadlines(deadlines, ids.map((checkId) => ({ checkId, at: deadline })));

    await waitFor('every check down', async () => (await Check.countDocuments({ _id: { $in: ids }, status: 'down' })) === ids.length, 45_000);
    await waitFor('the timer to finish', () => queueIdle(deadlines));
    const flips = await Flip.find({ checkId: { $in: ids }, newStatus: 'down' }, { checkId: 1, created: 1 }).lean();
    expect(flips).to.have.length(ids.length);
    expect(new Set(flips.map((f) => f.checkId)).size).to.equal(ids.length);
    expect(flips.every((f) => f.created.getTime() === deadline.getTime())).to.equal(true);
    expect(await indexedDeadlines()).to.equal(0);
  });

  it('wakes at the deadline of a schedule whose timer an older schedule replaced in a race', async () => {
    // Two schedules sent at once from two connections reached Redis as: entry of the newer
    // deadline, its timer, then the older timer replacing it (entry later than the timer).
    const now = Date.now();
    const older = new Date(now + 300);
    const newer = new Date(now + 1_500);
    const check = await buildCheck(project, { status: 'up', timeout: 60, grace: 1, lastPing: new Date(newer.getTime() - 61_000), deadline: newer });
    const { deadlines } = testContext().queues;
    await redisOf(deadlines).zadd(deadlineIndexKey(deadlines), newer.getTime(), check._id);
    await deadlines.addBulk([timerOf({ checkId: check._id, at: older }, new Date(now), true)]);
    await wentDown(check._id);
    const flips = await downFlips(check._id);
    expect(flips.map((f) => f.created.getTime())).to.deep.equal([newer.getTime()]);
  });

  it('fails a job without a check id or a moment at once, without retries', async () => {
    const job = await testContext().queues.deadlines.add('deadline', {} as { checkId: string }, { attempts: 3 });
    await waitFor('the job to fail', async () => (await job.getState()) === 'failed');
    const failed = await testContext().queues.deadlines.getJob(String(job.id));
    expect(failed?.attemptsMade).to.equal(1);
    expect(failed?.failedReason).to.equal('deadline job without a checkId or a moment');
  });
});
