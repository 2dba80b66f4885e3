import { expect } from 'chai';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Notification } from '../../shared/models/notification.js';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { scheduleDeadlines } from '../../shared/deadlines/schedule.js';
import type { CrashPoint } from '../../shared/crash.js';
import { buildChannel, buildCheck, buildProject } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { startNode, type Child } from '../helpers/processes.js';
import { startReceiver, jsonBody, type Receiver } from '../helpers/receiver.js';
import { waitFor } from '../helpers/poll.js';

/** Worker settings: sweep every second, job locks of 2 s, short alert timeouts and backoff (milliseconds). */
const WORKER_ENV = { SWEEP_INTERVAL_MS: '1000', JOB_LOCK_MS: '2000', NOTIFY_TIMEOUT_MS: '1000', NOTIFY_BACKOFF_MS: '50', LOG_LEVEL: 'warn' };

/**
 * kill -9 of the real worker process at each crash point while a reminder (`repeat_every`) or the end of a maintenance window is due: a restarted
 * worker must finish it, with exactly one alert.
 */
describe('fault: worker killed (SIGKILL) while a reminder or a maintenance window end is due', function () {
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

  /** A down check with a webhook channel, with `fields` due a second ago and its deadline job due now. */
  async function dueCheck(fields: Partial<CheckDoc>): Promise<string> {
    const project = await buildProject();
    const channel = await buildChannel(project, { kind: 'webhook', value: `${receiver.url}/hook` });
    const check = await buildCheck(project, { status: 'down', lastPing: new Date(Date.now() - 60_000), channels: [channel._id], ...fields });
    await scheduleDeadlines(testContext().queues.deadlines, [{ checkId: check._id, at: new Date() }], new Date());
    return check._id;
  }

  async function crashAt(point: CrashPoint): Promise<void> {
    const worker = startNode('workers/main.js', { ...WORKER_ENV, TEST_CRASH_AT: point });
    workers.push(worker);
    const [, signal] = (await once(worker.process, 'exit')) as [number | null, string | null];
    expect(signal, worker.output()).to.equal('SIGKILL');
  }

  /** Restarts a worker and waits until the alert was delivered and nothing is owed, then a little longer for repeats. */
  async function recover(checkId: string): Promise<void> {
    const worker = startNode('workers/main.js', WORKER_ENV);
    workers.push(worker);
    const delivered = async () =>
      (await Notification.countDocuments({ checkId, state: 'delivered' })) === 1 && (await Check.countDocuments({ _id: checkId, 'outbox.0': { $exists: true } })) === 0;
    await waitFor('the alert delivered and nothing owed', delivered, 60_000).catch((err: unknown) => {
      throw new Error(`${String(err)}; worker output:\n${worker.output()}`);
    });
    await sleep(1500);
  }

  const cases: Array<[string, () => Partial<CheckDoc>, Record<string, unknown>]> = [
    ['a reminder', () => ({ repeatEvery: 3600, remindAt: new Date(Date.now() - 1000), remindN: 0 }), { event: 'reminder', reminder: 1 }],
    ['a maintenance window end', () => ({ heldUntil: new Date(Date.now() - 1000) }), { event: 'resumed' }],
  ];
  for (const [what, fields, expected] of cases) {
    for (const point of ['deadline-stored', 'notifications-inserted', 'flip-inserted'] as const) {
      it(`sends ${what} exactly once after a kill at "${point}"`, async () => {
        const checkId = await dueCheck(fields());
        await crashAt(point);
        await recover(checkId);
        expect(receiver.requests.map((r) => jsonBody(r))).to.have.length(1);
        expect(jsonBody(receiver.requests[0])).to.include({ uuid: checkId, status: 'down', ...expected });
      });
    }
  }
});
