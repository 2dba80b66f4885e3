import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Check } from '../../shared/models/check.js';
import { Flip } from '../../shared/models/flip.js';
import { deadlineJobKey } from '../../shared/queues/deadlines.js';
import { flipJobId } from '../../shared/services/flips.js';
import { systemClock } from '../../shared/clock.js';
import { deadlineWorker } from '../../workers/deadlines.js';
import { runSweep } from '../../workers/sweep.js';
import { buildCheck, buildProject, type TestProject } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { TEST_SWEEP_INTERVAL_MS, downFlips, ping, startTestWorkers, wentDown } from './support.js';

describe('runSweep', () => {
  let project: TestProject;
  const deps = () => ({ queues: testContext().queues, clock: systemClock, settings: { deadlineConcurrency: 1, sweepIntervalMs: TEST_SWEEP_INTERVAL_MS } });
  const inMs = (ms: number) => new Date(Date.now() + ms);
  const pendingJob = (checkId: string) => testContext().queues.deadlines.getDeduplicationJobId(deadlineJobKey(checkId));
  const pendingJobs = async () => {
    const counts = await testContext().queues.deadlines.getJobCounts('delayed', 'wait');
    return counts.delayed + counts.wait;
  };
  const addFlip = (recorded: Date, processed: Date | null = null) =>
    Flip.create({ checkId: randomUUID(), created: recorded, recorded, processed, oldStatus: 'up', newStatus: 'down', reason: 'timeout' });

  beforeEach(async () => {
    project = await buildProject();
  });

  it('re-creates a deadline job lost in a Redis flush, and the flip still happens', async () => {
    const check = await buildCheck(project, { timeout: 1, grace: 1 });
    const { deadline } = await ping(check._id);
    await testContext().redis.flushdb();
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 1, flips: 0 });
    const running = startTestWorkers(deadlineWorker);
    try {
      await wentDown(check._id);
    } finally {
      await running.stop();
    }
    expect((await downFlips(check._id)).map((f) => f.created.getTime())).to.deep.equal([deadline?.getTime()]);
  });

  it('leaves checks due after two sweep intervals to their own job', async () => {
    const check = await buildCheck(project, { status: 'up', lastPing: new Date(), deadline: inMs(3 * TEST_SWEEP_INTERVAL_MS) });
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 0 });
    expect(await pendingJob(check._id)).to.equal(null);
  });

  it('skips checks stored down', async () => {
    await buildCheck(project, { status: 'down', lastPing: new Date(), deadline: new Date() });
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 0 });
  });

  it('keeps one pending job per check when it runs twice', async () => {
    const check = await buildCheck(project, { status: 'up', lastPing: new Date(), deadline: inMs(1_000) });
    await runSweep(deps());
    await runSweep(deps());
    expect(await pendingJob(check._id)).to.be.a('string');
    expect(await pendingJobs()).to.equal(1);
  });

  it('walks more checks than one cursor batch', async () => {
    const fields = { projectId: project.project._id, status: 'up', lastPing: new Date(), deadline: inMs(1_000), created: new Date() };
    await Check.insertMany(Array.from({ length: 450 }, () => ({ ...fields, _id: randomUUID(), badgeKey: randomUUID() })));
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 450, flips: 0 });
    expect(await pendingJobs()).to.equal(450);
  });

  it('re-enqueues a flip still unprocessed after a minute under its own job id', async () => {
    const flip = await addFlip(inMs(-61_000));
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 1 });
    const job = await testContext().queues.flips.getJob(flipJobId(String(flip._id)));
    expect(job?.data).to.deep.equal({ flipId: String(flip._id) });
  });

  it('leaves recent and processed flips alone', async () => {
    await addFlip(new Date());
    await addFlip(inMs(-120_000), inMs(-119_000));
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 0 });
    expect(await testContext().queues.flips.count()).to.equal(0);
  });

  it('adds no second job for a flip whose job is still queued', async () => {
    const flip = await addFlip(inMs(-61_000));
    const flipId = String(flip._id);
    await testContext().queues.flips.add('flip', { flipId }, { jobId: flipJobId(flipId) });
    await runSweep(deps());
    expect(await testContext().queues.flips.count()).to.equal(1);
  });
});
