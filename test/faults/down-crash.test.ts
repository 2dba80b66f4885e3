import { expect } from 'chai';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Flip } from '../../shared/models/flip.js';
import { Notification } from '../../shared/models/notification.js';
import { Check } from '../../shared/models/check.js';
import { scheduleDeadlines } from '../../shared/deadlines/schedule.js';
import type { CrashPoint } from '../../shared/crash.js';
import { buildChannel, buildCheck, buildProject } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { startNode, type Child } from '../helpers/processes.js';
import { startReceiver, jsonBody, type Receiver } from '../helpers/receiver.js';
import { waitFor } from '../helpers/poll.js';
import { printAlertDelays } from '../helpers/mass-down.js';

/** Worker settings: the shipped sweep, lock, lease and recovery intervals (a test that shortens them proves nothing about what an operator gets). */
const WORKER_ENV = { LOG_LEVEL: 'warn' };

/**
 * kill -9 of the real worker process at each crash point of a down
 * transition: a restarted worker (its retry or its sweep) must finish the
 * work, with exactly one flip and exactly one webhook POST per check.
 */
describe('fault: worker killed (SIGKILL) during a down transition', function () {
  this.timeout(90_000);
  let receiver: Receiver;
  let workers: Child[] = [];
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGKILL').catch(() => undefined)));
    workers = [];
    await receiver.close();
  });

  /** `count` checks with a webhook channel, all past their deadline, with their deadline jobs due now. */
  async function dueChecks(count: number): Promise<string[]> {
    const project = await buildProject();
    const channel = await buildChannel(project, { kind: 'webhook', value: `${receiver.url}/hook` });
    const lastPing = new Date(Date.now() - 10_000);
    const fields = { status: 'up' as const, lastPing, timeout: 1, grace: 1, deadline: new Date(lastPing.getTime() + 2_000), channels: [channel._id] };
    const checks = await Promise.all(Array.from({ length: count }, () => buildCheck(project, fields)));
    await scheduleDeadlines(testContext().queues.deadlines, checks.map((c) => ({ checkId: c._id, at: c.deadline! })), new Date());
    return checks.map((c) => c._id);
  }

  /** Runs a worker that kills itself at `point`, and waits for the kill. */
  async function crashAt(point: CrashPoint): Promise<void> {
    const worker = startNode('workers/main.js', { ...WORKER_ENV, TEST_CRASH_AT: point });
    workers.push(worker);
    const [, signal] = (await once(worker.process, 'exit')) as [number | null, string | null];
    expect(signal, worker.output()).to.equal('SIGKILL');
  }

  /** Restarts a worker and waits until every check's alert was delivered and no flip is owed, then a little longer for repeats. */
  async function recover(checkIds: string[]): Promise<Date> {
    const restarted = new Date();
    const worker = startNode('workers/main.js', WORKER_ENV);
    workers.push(worker);
    const delivered = async () =>
      (await Notification.countDocuments({ checkId: { $in: checkIds }, state: 'delivered' })) === checkIds.length &&
      (await Check.countDocuments({ _id: { $in: checkIds }, 'outbox.0': { $exists: true } })) === 0;
    await waitFor('every alert delivered and no flip owed', delivered, 120_000).catch((err: unknown) => {
      throw new Error(`${String(err)}; worker output:\n${worker.output()}`);
    });
    await sleep(1500);
    return restarted;
  }

  async function expectOnceEach(checkIds: string[]): Promise<void> {
    const flips = await Flip.find({ checkId: { $in: checkIds } }).lean();
    expect(flips.map((f) => f.checkId).sort()).to.deep.equal([...checkIds].sort());
    const posted = receiver.requests.map((r) => jsonBody(r).uuid as string);
    expect(posted.sort()).to.deep.equal([...checkIds].sort());
    const owing = await Check.countDocuments({ _id: { $in: checkIds }, 'outbox.0': { $exists: true } });
    expect(owing).to.equal(0);
  }

  for (const point of ['deadline-stored', 'notifications-inserted', 'flip-inserted', 'notify-claimed'] as const) {
    it(`completes a check's down flip and alert exactly once after a kill at "${point}"`, async () => {
      const checkIds = await dueChecks(1);
      await crashAt(point);
      await recover(checkIds);
      await expectOnceEach(checkIds);
    });
  }

  it('completes a mass down of 100 checks exactly once after a kill in the middle of it', async function () {
    this.timeout(180_000);
    const checkIds = await dueChecks(100);
    await crashAt('notifications-inserted');
    expect(await Check.countDocuments({ _id: { $in: checkIds }, status: 'down' })).to.be.greaterThan(0);
    const restarted = await recover(checkIds);
    await printAlertDelays('worker killed and restarted at once (from the restart)', checkIds, restarted);
    await expectOnceEach(checkIds);
  });
});
