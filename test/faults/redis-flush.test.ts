import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { Flip } from '../../shared/models/flip.js';
import { Check } from '../../shared/models/check.js';
import { buildCheck, buildProject, http } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { startNode, waitForOutput, type Child } from '../helpers/processes.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { allAlerted, checksDueAt, expectOnceEach, printAlertDelays } from '../helpers/mass-down.js';
import { waitFor } from '../helpers/poll.js';

/**
 * A Redis flush (the test run's own Redis database) with deadlines pending:
 * the worker's sweep re-creates the lost deadline jobs from MongoDB, and every
 * check still goes down, once.
 */
describe('fault: Redis flushed with deadlines pending', function () {
  this.timeout(60_000);
  let worker: Child | undefined;
  afterEach(async () => {
    await worker?.stop('SIGKILL').catch(() => undefined);
    worker = undefined;
  });

  it('takes every check down exactly once after the flush', async () => {
    const project = await buildProject();
    const checks = await Promise.all(Array.from({ length: 20 }, () => buildCheck(project, { timeout: 2, grace: 1 })));
    for (const check of checks) expect((await http().get(`/ping/${check._id}`)).status).to.equal(200);
    const { deadlines } = testContext().queues;
    expect(await deadlines.getDelayedCount()).to.equal(checks.length);
    await testContext().redis.flushdb();
    worker = startNode('workers/main.js', { LOG_LEVEL: 'warn' });
    const ids = checks.map((c) => c._id);
    await waitFor('every check down', async () => (await Check.countDocuments({ _id: { $in: ids }, status: 'down' })) === ids.length, 30_000);
    await waitFor('every flip recorded', async () => (await Flip.countDocuments({ checkId: { $in: ids }, newStatus: 'down' })) === ids.length, 30_000);
    const flips = await Flip.find({ checkId: { $in: ids }, newStatus: 'down' }).lean();
    expect(flips.map((f) => f.checkId).sort()).to.deep.equal([...ids].sort());
  });
});

/**
 * FLUSHALL of the run's Redis database 300 ms before a mass deadline, with a worker running the shipped intervals: the worker notices (generation
 * key) and rebuilds the deadline timers and alert jobs from MongoDB; every check goes down once and every alert goes once.
 */
describe('fault: Redis flushed just before a mass deadline', function () {
  this.timeout(300_000);
  let worker: Child | undefined;
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await worker?.stop('SIGKILL').catch(() => undefined);
    worker = undefined;
    await receiver.close();
  });

  it('takes 100 checks down and alerts each exactly once', async () => {
    worker = startNode('workers/main.js', { LOG_LEVEL: 'info' });
    await waitForOutput(worker, 'workers started', 120_000);
    const at = new Date(Date.now() + 3_000);
    const checkIds = await checksDueAt(receiver, 100, at);
    await sleep(at.getTime() - 300 - Date.now());
    await testContext().redis.flushdb();
    await allAlerted(checkIds, 180_000).catch((err: unknown) => {
      throw new Error(`${String(err)}; worker output:\n${worker?.output() ?? ''}`);
    });
    await sleep(3_000);
    await printAlertDelays('Redis flushed 300 ms before', checkIds);
    await expectOnceEach(receiver, checkIds, true);
  });
});
