import { expect } from 'chai';
import { Flip } from '../../shared/models/flip.js';
import { Notification } from '../../shared/models/notification.js';
import { Check } from '../../shared/models/check.js';
import { scheduleDeadlines } from '../../shared/deadlines/schedule.js';
import { buildCheck } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { jsonBody } from '../helpers/receiver.js';
import { printAlertDelays } from '../helpers/mass-down.js';
import { workerCrashRig } from '../helpers/worker-crash.js';

/** Worker settings: the shipped sweep, lock, lease and recovery intervals (a test that shortens them proves nothing about what an operator gets). */
const WORKER_ENV = { LOG_LEVEL: 'warn' };

/**
 * kill -9 of the real worker process at each crash point of a down
 * transition: a restarted worker (its retry or its sweep) must finish the
 * work, with exactly one flip and exactly one webhook POST per check.
 */
describe('fault: worker killed (SIGKILL) during a down transition', function () {
  this.timeout(90_000);
  const rig = workerCrashRig(WORKER_ENV);

  /** `count` checks with a webhook channel, all past their deadline, with their deadline jobs due now. */
  async function dueChecks(count: number): Promise<string[]> {
    const { project, channel } = await rig.hookedProject();
    const lastPing = new Date(Date.now() - 10_000);
    const fields = { status: 'up' as const, lastPing, timeout: 1, grace: 1, deadline: new Date(lastPing.getTime() + 2_000), channels: [channel._id] };
    const checks = await Promise.all(Array.from({ length: count }, () => buildCheck(project, fields)));
    await scheduleDeadlines(testContext().queues.deadlines, checks.map((c) => ({ checkId: c._id, at: c.deadline! })), new Date());
    return checks.map((c) => c._id);
  }

  /** Restarts a worker and waits until every check's alert was delivered and no flip is owed, then a little longer for repeats. */
  async function recover(checkIds: string[]): Promise<Date> {
    const delivered = async () =>
      (await Notification.countDocuments({ checkId: { $in: checkIds }, state: 'delivered' })) === checkIds.length &&
      (await Check.countDocuments({ _id: { $in: checkIds }, 'outbox.0': { $exists: true } })) === 0;
    return rig.recover('every alert delivered and no flip owed', delivered, 120_000);
  }

  async function expectOnceEach(checkIds: string[]): Promise<void> {
    const flips = await Flip.find({ checkId: { $in: checkIds } }).lean();
    expect(flips.map((f) => f.checkId).sort()).to.deep.equal([...checkIds].sort());
    const posted = rig.receiver.requests.map((r) => jsonBody(r).uuid as string);
    expect(posted.sort()).to.deep.equal([...checkIds].sort());
    const owing = await Check.countDocuments({ _id: { $in: checkIds }, 'outbox.0': { $exists: true } });
    expect(owing).to.equal(0);
  }

  for (const point of ['deadline-stored', 'notifications-inserted', 'flip-inserted', 'notify-claimed'] as const) {
    it(`completes a check's down flip and alert exactly once after a kill at "${point}"`, async () => {
      const checkIds = await dueChecks(1);
      await rig.crashAt(point);
      await recover(checkIds);
      await expectOnceEach(checkIds);
    });
  }

  it('completes a mass down of 100 checks exactly once after a kill in the middle of it', async function () {
    this.timeout(180_000);
    const checkIds = await dueChecks(100);
    await rig.crashAt('notifications-inserted');
    expect(await Check.countDocuments({ _id: { $in: checkIds }, status: 'down' })).to.be.greaterThan(0);
    const restarted = await recover(checkIds);
    await printAlertDelays('worker killed and restarted at once (from the restart)', checkIds, restarted);
    await expectOnceEach(checkIds);
  });
});
