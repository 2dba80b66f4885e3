import { expect } from 'chai';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Types } from 'mongoose';
import { Notification } from '../../shared/models/notification.js';
import { Check } from '../../shared/models/check.js';
import { changeCheck } from '../../shared/checks/store.js';
import type { CrashPoint } from '../../shared/crash.js';
import { buildChannel, buildCheck, buildProject, http } from '../helpers/factories.js';
import { storedFlips } from '../helpers/pings.js';
import { startNode, type Child } from '../helpers/processes.js';
import { startReceiver, jsonBody, type Receiver } from '../helpers/receiver.js';
import { waitFor } from '../helpers/poll.js';

/** Worker settings: sweep every second, job locks of 2 s, short alert timeouts and backoff (milliseconds). */
const WORKER_ENV = { SWEEP_INTERVAL_MS: '1000', JOB_LOCK_MS: '2000', NOTIFY_TIMEOUT_MS: '1000', NOTIFY_BACKOFF_MS: '50', LOG_LEVEL: 'warn' };

/**
 * kill -9 of the real worker while it completes a parent's recovery (README "Alerting rules", `depends_on`): the held-back down alert of the
 * dependant is still sent exactly once.
 */
describe('fault: worker killed (SIGKILL) while a parent\'s recovery releases a held alert', function () {
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

  /** A router down and a job behind it down with its alert held; then the router's recovery written with its flip owed, as a web process dying right after its store write leaves it (old enough for the sweep). */
  async function heldJobAndRecoveredRouter(): Promise<string> {
    const project = await buildProject();
    const channel = await buildChannel(project, { kind: 'webhook', value: `${receiver.url}/hook` });
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
      const crashing = startNode('workers/main.js', { ...WORKER_ENV, TEST_CRASH_AT: point });
      workers.push(crashing);
      const [, signal] = (await once(crashing.process, 'exit')) as [number | null, string | null];
      expect(signal, crashing.output()).to.equal('SIGKILL');
      const worker = startNode('workers/main.js', WORKER_ENV);
      workers.push(worker);
      const done = async () =>
        (await Notification.countDocuments({ checkId: jobId, state: 'delivered' })) === 1 && (await Check.countDocuments({ 'outbox.0': { $exists: true } })) === 0;
      await waitFor('the released alert delivered and nothing owed', done, 60_000).catch((err: unknown) => {
        throw new Error(`${String(err)}; worker output:\n${worker.output()}`);
      });
      await sleep(1500);
      expect(receiver.requests.map((r) => [jsonBody(r).uuid, jsonBody(r).status])).to.deep.equal([[jobId, 'down']]);
      expect(await storedFlips(jobId)).to.have.length(1);
      expect(await Notification.countDocuments({ checkId: jobId })).to.equal(2);
    });
  }
});
