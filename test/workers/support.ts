/**
 * Shared setup of the worker tests: real BullMQ workers on a dedicated Redis
 * connection to the run's Redis, and pings through the real ping path.
 */
import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Types } from 'mongoose';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { Flip, type FlipDoc } from '../../shared/models/flip.js';
import { Types as MongoTypes } from 'mongoose';
import { recordPings } from '../../shared/pings/record.js';
import type { Signal } from '../../shared/domain/status.js';
import { createRedis } from '../../shared/queues/connections.js';
import { systemClock } from '../../shared/clock.js';
import type { WorkerDeps, WorkerFactory } from '../../shared/queues/deps.js';
import { testContext } from '../helpers/hooks.js';
import { waitFor } from '../helpers/poll.js';

/** Sweep interval used by worker tests, in milliseconds (horizon = 2 s). */
export const TEST_SWEEP_INTERVAL_MS = 1_000;

const meta = () => ({ _id: new MongoTypes.ObjectId(), scheme: 'http', remoteAddr: '127.0.0.1', method: 'GET', ua: 'test', body: null, exitStatus: null, rid: null });

/** Worker dependencies on the run's queues, with a connection of their own. */
export function workerDeps(connection: Redis): WorkerDeps {
  return {
    connection,
    queues: testContext().queues,
    clock: systemClock,
    settings: { deadlineConcurrency: 10, sweepIntervalMs: TEST_SWEEP_INTERVAL_MS },
  };
}

/** Started workers and how to stop them and their connection. */
export interface TestWorkers {
  deps: WorkerDeps;
  workers: Worker[];
  stop(): Promise<void>;
}

/** Starts the given workers on a dedicated worker-role connection to the run's Redis. */
export function startTestWorkers(...factories: WorkerFactory[]): TestWorkers {
  const connection = createRedis(testContext().services.redisUrl, 'worker');
  const deps = workerDeps(connection);
  const workers = factories.map((build) => build(deps));
  return {
    deps,
    workers,
    stop: async () => {
      await Promise.all(workers.map((w) => w.close()));
      await connection.quit();
    },
  };
}

/** Sends a signal to the check as stored now, through the real signal service. */
export async function ping(checkId: string, signal: Signal = 'success'): Promise<CheckDoc> {
  const check = await Check.findById(checkId).lean<CheckDoc>();
  if (!check) throw new Error(`no check ${checkId}`);
  await recordPings({ clock: systemClock, queues: testContext().queues }, [{ checkId: check._id, resolve: () => signal, meta: meta() }]);
  return stored(checkId);
}

/** A flip as read back, with its id. */
export type StoredFlip = FlipDoc & { _id: Types.ObjectId };

/** The check's flips into `down`, oldest first (a first success ping also records new→up). */
export async function downFlips(checkId: string): Promise<StoredFlip[]> {
  return Flip.find({ checkId, newStatus: 'down' }).sort({ created: 1 }).lean<StoredFlip[]>();
}

/**
 * Waits until the check is stored down and its flip into down is written
 * (the worker writes the status first, then the flip).
 *
 * @throws Error after `timeoutMs` milliseconds.
 */
export async function wentDown(checkId: string, timeoutMs = 5_000): Promise<void> {
  await waitFor('the check to go down', async () =>
    (await downFlips(checkId)).length > 0 && (await stored(checkId)).status === 'down', timeoutMs);
}

/**
 * The check's stored fields.
 *
 * @throws Error when the check does not exist.
 */
export async function stored(checkId: string): Promise<CheckDoc> {
  const check = await Check.findById(checkId).lean<CheckDoc>();
  if (!check) throw new Error(`no check ${checkId}`);
  return check;
}

/** True once the queue holds no job that is delayed, waiting or active. */
export async function queueIdle(queue: Queue): Promise<boolean> {
  const counts = await queue.getJobCounts('delayed', 'wait', 'active', 'prioritized');
  return Object.values(counts).every((n) => n === 0);
}
