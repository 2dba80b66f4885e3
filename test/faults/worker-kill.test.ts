import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { Check } from '../../shared/models/check.js';
import { startNode, waitForOutput, type Child } from '../helpers/processes.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { allAlerted, checksDueAt, expectOnceEach, printAlertDelays } from '../helpers/mass-down.js';
import { waitFor } from '../helpers/poll.js';

/** The shipped sweep, lock, lease and recovery intervals: only the log level is set. */
const WORKER_ENV = { LOG_LEVEL: 'info' };
/** Checks going down together. */
const MASS = 100;
/** Alerts the receiver never answers (slow providers), so the first worker is mid-send when it is killed. */
const HUNG = 20;

/**
 * kill -9 from outside of one of two worker processes in the middle of a mass down (its alerts in flight, its flips owed): the other worker
 * completes every flip once and sends every alert, a repeat only under the same Idempotency-Key (the killed worker may have handed it over).
 */
describe('fault: one of two workers killed (SIGKILL) during a mass down', function () {
  this.timeout(300_000);
  let receiver: Receiver;
  let workers: Child[] = [];
  beforeEach(async () => {
    receiver = await startReceiver((n) => (n < HUNG ? 'hang' : { status: 200 }));
  });
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGKILL').catch(() => undefined)));
    workers = [];
    await receiver.close();
  });

  it(`the surviving worker completes ${MASS} down flips and alerts, none lost, none flipped twice`, async () => {
    const first = startNode('workers/main.js', WORKER_ENV);
    workers.push(first);
    await waitForOutput(first, 'workers started', 120_000);
    const checkIds = await checksDueAt(receiver, MASS, new Date(Date.now() + 1_000));
    // The first worker took the mass down and is sending: the receiver holds its first requests.
    await waitFor('the first alerts', async () => receiver.requests.length >= HUNG, 30_000);
    const second = startNode('workers/main.js', WORKER_ENV);
    workers.push(second);
    await waitForOutput(second, 'workers started', 120_000);
    const killed = new Date();
    first.process.kill('SIGKILL');
    expect(await Check.countDocuments({ _id: { $in: checkIds }, status: 'down' })).to.be.greaterThan(0);
    await allAlerted(checkIds, 180_000).catch((err: unknown) => {
      throw new Error(`${String(err)}; surviving worker's output:\n${second.output()}`);
    });
    // Long enough for a stray repeat to arrive (two recovery intervals and a claim's lease).
    await sleep(6_000);
    await printAlertDelays('one of two workers killed', checkIds, killed);
    await expectOnceEach(receiver, checkIds, false);
  });
});
