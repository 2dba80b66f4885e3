import { expect } from 'chai';
import { Types } from 'mongoose';
import { Notification } from '../../shared/models/notification.js';
import { Check } from '../../shared/models/check.js';
import { changeCheck } from '../../shared/checks/store.js';
import type { CrashPoint } from '../../shared/crash.js';
import { buildCheck, http } from '../helpers/factories.js';
import { storedFlips } from '../helpers/pings.js';
import { jsonBody } from '../helpers/receiver.js';
import { FAST_WORKER_ENV, workerCrashRig } from '../helpers/worker-crash.js';

/**
 * kill -9 of the real worker while it completes a parent's recovery (docs/alerting-rules.md, `depends_on`): the held-back down alert of the
 * dependant is still sent exactly once.
 */
describe('fault: worker killed (SIGKILL) while a parent\'s recovery releases a held alert', function () {
  this.timeout(90_000);
  const rig = workerCrashRig(FAST_WORKER_ENV);

  /** A router down and a job behind it down with its alert held; then the router's recovery written with its flip owed, as a web process dying right after its store write leaves it (old enough for the sweep). */
  async function heldJobAndRecoveredRouter(): Promise<string> {
    const { project, channel } = await rig.hookedProject();
    const router = await buildCheck(project, { status: 'down', lastPing: new Date() });
    const job = await buildCheck(project, { status: 'up', lastPing: new Date(), dependsOn: [router._id], channels: [channel._id] });
    await http().get(`/ping/${job._id}/fail`);
    expect((await Notification.findOne({ checkId: job._id }).lean())?.state).to.equal('failed');
    const recorded = new Date(Date.now() - 60_000);
    const entry = { _id: new Types.ObjectId(), at: recorded, recorded, oldStatus: 'down' as const, newStatus: 'up' as const, reason: '' as const };
    await changeCheck(router._id, () => ({ change: { set: { status: 'up', lastPing: recorded }, owe: [entry] }, result: null }));
    return job._id;
  }

  for (const point of ['notifications-inserted', 'flip-inserted', 'notify-claimed'] as const satisfies readonly CrashPoint[]) {
    it(`sends the released alert exactly once after a kill at "${point}"`, async () => {
      const jobId = await heldJobAndRecoveredRouter();
      await rig.crashAt(point);
      const done = async () =>
        (await Notification.countDocuments({ checkId: jobId, state: 'delivered' })) === 1 && (await Check.countDocuments({ 'outbox.0': { $exists: true } })) === 0;
      await rig.recover('the released alert delivered and nothing owed', done, 60_000);
      expect(rig.receiver.requests.map((r) => [jsonBody(r).uuid, jsonBody(r).status])).to.deep.equal([[jobId, 'down']]);
      expect(await storedFlips(jobId)).to.have.length(1);
      expect(await Notification.countDocuments({ checkId: jobId })).to.equal(2);
    });
  }
});
