import { expect } from 'chai';
import { Notification } from '../../shared/models/notification.js';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { scheduleDeadlines } from '../../shared/deadlines/schedule.js';
import { buildCheck } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { jsonBody } from '../helpers/receiver.js';
import { FAST_WORKER_ENV, workerCrashRig } from '../helpers/worker-crash.js';

/**
 * kill -9 of the real worker process at each crash point while a reminder (`repeat_every`) or the end of a maintenance window is due: a restarted
 * worker must finish it, with exactly one alert.
 */
describe('fault: worker killed (SIGKILL) while a reminder or a maintenance window end is due', function () {
  this.timeout(90_000);
  const rig = workerCrashRig(FAST_WORKER_ENV);

  /** A down check with a webhook channel, with `fields` due a second ago and its deadline job due now. */
  async function dueCheck(fields: Partial<CheckDoc>): Promise<string> {
    const { project, channel } = await rig.hookedProject();
    const check = await buildCheck(project, { status: 'down', lastPing: new Date(Date.now() - 60_000), channels: [channel._id], ...fields });
    await scheduleDeadlines(testContext().queues.deadlines, [{ checkId: check._id, at: new Date() }], new Date());
    return check._id;
  }

  /** Restarts a worker and waits until the alert was delivered and nothing is owed, then a little longer for repeats. */
  async function recover(checkId: string): Promise<void> {
    const delivered = async () =>
      (await Notification.countDocuments({ checkId, state: 'delivered' })) === 1 && (await Check.countDocuments({ _id: checkId, 'outbox.0': { $exists: true } })) === 0;
    await rig.recover('the alert delivered and nothing owed', delivered, 60_000);
  }

  const cases: Array<[string, () => Partial<CheckDoc>, Record<string, unknown>]> = [
    ['a reminder', () => ({ repeatEvery: 3600, remindAt: new Date(Date.now() - 1000), remindN: 0 }), { event: 'reminder', reminder: 1 }],
    ['a maintenance window end', () => ({ heldUntil: new Date(Date.now() - 1000) }), { event: 'resumed' }],
  ];
  for (const [what, fields, expected] of cases) {
    for (const point of ['deadline-stored', 'notifications-inserted', 'flip-inserted'] as const) {
      it(`sends ${what} exactly once after a kill at "${point}"`, async () => {
        const checkId = await dueCheck(fields());
        await rig.crashAt(point);
        await recover(checkId);
        expect(rig.receiver.requests.map((r) => jsonBody(r))).to.have.length(1);
        expect(jsonBody(rig.receiver.requests[0])).to.include({ uuid: checkId, status: 'down', ...expected });
      });
    }
  }
});
