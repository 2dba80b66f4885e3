import { expect } from 'chai';
import { Flip } from '../../shared/models/flip.js';
import { Check } from '../../shared/models/check.js';
import { buildCheck, buildProject, http } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { startNode, type Child } from '../helpers/processes.js';
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
