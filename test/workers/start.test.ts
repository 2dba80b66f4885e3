import { expect } from 'chai';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { QueueName } from '../../shared/queues/names.js';
import { createRedis } from '../../shared/queues/connections.js';
import { bullOptions } from '../../shared/queues/index.js';
import { startWorkers, type RunningWorkers } from '../../workers/start.js';
import { SWEEP_SCHEDULER_ID } from '../../shared/deadlines/sweep.js';
import type { WorkerFactory } from '../../shared/queues/deps.js';
import { buildCheck, buildProject, type TestProject } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { waitFor } from '../helpers/poll.js';
import { TEST_SWEEP_INTERVAL_MS, downFlips, wentDown, workerDeps } from './support.js';

describe('startWorkers', () => {
  let project: TestProject;
  let connection: Redis;
  let running: RunningWorkers | undefined;
  const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);
  const overdueCheck = () => buildCheck(project, { status: 'up', timeout: 1, grace: 1, lastPing: secondsAgo(10), deadline: secondsAgo(8) });

  beforeEach(async () => {
    project = await buildProject();
    connection = createRedis(testContext().services.redisUrl, 'worker');
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
    await connection.quit();
  });

  it('sweeps at start, so a deadline whose job was lost still flips', async () => {
    const check = await overdueCheck();
    running = await startWorkers(workerDeps(connection));
    await wentDown(check._id);
    expect(await downFlips(check._id)).to.have.length(1);
  });

  it('schedules the sweep to repeat every sweep interval', async () => {
    running = await startWorkers(workerDeps(connection));
    const queue = new Queue(QueueName.Sweep, bullOptions(connection));
    const scheduler = await queue.getJobScheduler(SWEEP_SCHEDULER_ID);
    await queue.close();
    expect(scheduler?.every).to.equal(TEST_SWEEP_INTERVAL_MS);
  });

  it('keeps sweeping after start', async () => {
    running = await startWorkers(workerDeps(connection));
    const queue = new Queue(QueueName.Sweep, bullOptions(connection));
    await waitFor('the first scheduled sweep to finish', async () => {
      const counts = await queue.getJobCounts('wait', 'active', 'delayed');
      return counts.wait + counts.active === 0 && counts.delayed === 1;
    });
    await queue.close();
    const check = await overdueCheck();
    await wentDown(check._id);
    expect(await downFlips(check._id)).to.have.length(1);
  });

  it('re-creates the sweep scheduler after a Redis flush, so sweeping goes on', async () => {
    running = await startWorkers(workerDeps(connection));
    await testContext().redis.flushdb();
    const check = await overdueCheck();
    await wentDown(check._id);
    expect(await downFlips(check._id)).to.have.length(1);
  });

  it('close waits for an active job to finish', async () => {
    let finished = false;
    const slow: WorkerFactory = (deps) =>
      new Worker('test-slow', async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        finished = true;
      }, { connection: deps.connection });
    running = await startWorkers(workerDeps(connection), [slow]);
    const queue = new Queue('test-slow', { connection });
    const job = await queue.add('slow', {});
    await waitFor('the job to be active', async () => (await job.getState()) === 'active');
    await running.close();
    running = undefined;
    expect(finished).to.equal(true);
    expect(await job.getState()).to.equal('completed');
    await queue.close();
  });
});
