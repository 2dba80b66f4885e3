/**
 * The reconciliation sweep: MongoDB is the truth and Redis only wakes workers,
 * so a lost Redis (flush, failover, a ping that could not enqueue) must lose
 * nothing. Periodically re-creates the deadline jobs of checks due soon and
 * re-enqueues flips nobody has notified yet. Every step is idempotent, so two
 * sweeps at once, or a sweep racing a ping, do no harm.
 */
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { Check } from '../shared/models/check.js';
import { Flip } from '../shared/models/flip.js';
import { scheduleDeadline } from '../shared/queues/deadlines.js';
import { QueueName } from '../shared/queues/names.js';
import { flipJobOptions } from '../shared/services/flips.js';
import { logger } from '../shared/logger.js';
import type { WorkerDeps } from './deps.js';
import { requeueStaleNotifications } from './flips.js';

const log = logger.child({ module: 'sweep' });

/** Documents read per cursor batch and jobs added at once. */
const BATCH_SIZE = 200;

/**
 * An unprocessed flip younger than this (milliseconds) is left alone: its own
 * enqueue (recordFlip) or its notify job is probably still in flight.
 */
export const FLIP_STALE_MS = 60_000;

/** The id of the repeating sweep job scheduler. */
export const SWEEP_SCHEDULER_ID = 'sweep';

/** What one sweep did. */
export interface SweepResult {
  /** Checks whose deadline job was (re)scheduled. */
  deadlines: number;
  /** Unprocessed flips put back on the `flips` queue. */
  flips: number;
}

/** Runs `fn` on successive batches of `source`, holding one batch in memory at a time. */
async function inBatches<T>(source: AsyncIterable<T>, fn: (batch: T[]) => Promise<void>): Promise<number> {
  let batch: T[] = [];
  let count = 0;
  for await (const item of source) {
    batch.push(item);
    if (batch.length === BATCH_SIZE) {
      await fn(batch);
      count += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) await fn(batch);
  return count + batch.length;
}

/**
 * One sweep.
 *
 * 1. Every check not stored `down` whose deadline is at most two sweep
 *    intervals ahead (or already past) gets its deadline job scheduled again.
 *    Deduplication keeps it to one job per check, and the horizon makes sure a
 *    job lost in Redis is back before it is due, not one interval late.
 * 2. Every flip still unprocessed after {@link FLIP_STALE_MS} is added to the
 *    `flips` queue under its deterministic job id; BullMQ ignores the add while
 *    that job still exists (a failed one is kept for inspection).
 * 3. Every notification whose notify job was lost after the fan-out is put
 *    back on the `notify` queue (`requeueStaleNotifications`).
 *
 * @param deps - Queues, clock and `settings.sweepIntervalMs`.
 * @returns How many deadlines and flips were enqueued.
 * @throws the MongoDB or Redis error (the next sweep tries again).
 */
export async function runSweep(deps: Pick<WorkerDeps, 'queues' | 'clock' | 'settings' | 'notify'>): Promise<SweepResult> {
  const now = deps.clock();
  const horizon = new Date(now.getTime() + 2 * deps.settings.sweepIntervalMs);
  const checks = Check.find({ status: { $ne: 'down' }, deadline: { $ne: null, $lte: horizon } }, { deadline: 1 })
    .lean<{ _id: string; deadline: Date }[]>()
    .cursor({ batchSize: BATCH_SIZE });
  const deadlines = await inBatches(checks, async (batch) => {
    await Promise.all(batch.map((c) => scheduleDeadline(deps.queues.deadlines, c._id, c.deadline, now)));
  });

  const staleBefore = new Date(now.getTime() - FLIP_STALE_MS);
  const flipIds = Flip.find({ processed: null, recorded: { $lte: staleBefore } }, { _id: 1 })
    .lean<{ _id: unknown }[]>()
    .cursor({ batchSize: BATCH_SIZE });
  const flips = await inBatches(flipIds, async (batch) => {
    // Same job options as recordFlip, so a re-enqueued flip behaves like a fresh one.
    await deps.queues.flips.addBulk(
      batch.map(({ _id }) => ({
        name: 'flip',
        data: { flipId: String(_id) },
        opts: flipJobOptions(String(_id)),
      })),
    );
  });

  const notifications = await requeueStaleNotifications(deps, FLIP_STALE_MS);
  if (deadlines + flips + notifications > 0) log.info({ deadlines, flips, notifications }, 'sweep enqueued');
  return { deadlines, flips };
}

/** Upserts the repeating sweep job scheduler, every `intervalMs` milliseconds. */
async function upsertSweepScheduler(queue: Queue, intervalMs: number): Promise<void> {
  await queue.upsertJobScheduler(
    SWEEP_SCHEDULER_ID,
    { every: intervalMs },
    { name: 'sweep', opts: { removeOnComplete: true, removeOnFail: 100 } },
  );
}

/**
 * Makes the sweep repeat every `settings.sweepIntervalMs` across all worker
 * processes (one job per interval, whoever takes it). Upserting is idempotent,
 * so every worker process may call it at boot.
 *
 * @param connection - Worker-role Redis connection.
 * @param intervalMs - Milliseconds between sweeps.
 * @returns The sweep queue handle; close it on shutdown.
 */
export async function scheduleSweep(connection: Redis, intervalMs: number): Promise<Queue> {
  const queue = new Queue(QueueName.Sweep, { connection });
  await upsertSweepScheduler(queue, intervalMs);
  return queue;
}

/**
 * Re-creates the sweep's job scheduler whenever it is missing. The scheduler
 * lives in Redis, so a flush deletes it, and then no sweep would run again
 * until a worker process restarts, although repairing a flush is the sweep's
 * whole purpose. Looks every `intervalMs` milliseconds (one Redis read).
 *
 * @param queue - The sweep queue handle from {@link scheduleSweep}.
 * @param intervalMs - Milliseconds between sweeps, and between looks.
 * @returns Stops looking; resolves once a look in progress has finished.
 */
export function keepSweepScheduled(queue: Queue, intervalMs: number): () => Promise<void> {
  let look: Promise<void> | undefined;
  const ensure = async (): Promise<void> => {
    if (await queue.getJobScheduler(SWEEP_SCHEDULER_ID)) return;
    await upsertSweepScheduler(queue, intervalMs);
    log.warn('sweep scheduler was missing (Redis flushed?); re-created');
  };
  const timer = setInterval(() => {
    look ??= ensure()
      .catch((err: unknown) => log.error({ err }, 'cannot check the sweep scheduler; trying again next interval'))
      .finally(() => (look = undefined));
  }, intervalMs);
  return async () => {
    clearInterval(timer);
    await look;
  };
}

/**
 * Starts the `sweep` consumer, one sweep at a time.
 *
 * @param deps - Connection, queues, clock and settings.
 */
export function sweepWorker(deps: WorkerDeps): Worker<unknown, SweepResult> {
  return new Worker<unknown, SweepResult>(QueueName.Sweep, () => runSweep(deps), {
    connection: deps.connection,
    concurrency: 1,
  });
}
