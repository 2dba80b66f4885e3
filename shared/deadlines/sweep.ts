/**
 * The reconciliation sweep: MongoDB is the truth and Redis only wakes workers,
 * so a lost Redis (flush, failover, a ping that could not enqueue) and a
 * crashed process must lose nothing. Periodically adds the deadlines Redis
 * lost (index entries and timers), completes flips left owed in checks' outboxes, and re-queues alerts
 * whose notify jobs were lost. Every step is idempotent and every query uses
 * an index, so two sweeps at once, or a sweep racing a ping, do no harm.
 */
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { Check, type CheckDoc } from '../shared/models/check.js';
import { config as appConfig } from '../shared/config.js';
import { ensureDeadlines, wakeDrain } from '../shared/queues/deadlines.js';
import { bullOptions, workerOptions } from '../shared/queues/index.js';
import { QueueName } from '../shared/queues/names.js';
import { settleOutbox } from '../shared/services/outbox.js';
import { logger } from '../shared/logger.js';
import type { WorkerDeps } from './deps.js';
import { requeueStaleNotifications } from './requeue.js';

const log = logger.child({ module: 'sweep' });

/** Documents read per cursor batch and jobs added at once. */
const BATCH_SIZE = 500;

/**
 * An outbox entry or pending notification younger than this (milliseconds) is
 * left alone: the process that wrote it is probably still completing it.
 */
export const OWED_STALE_MS = 10_000;

/** The id of the repeating sweep job scheduler. */
export const SWEEP_SCHEDULER_ID = 'sweep';

/** What one sweep did. */
export interface SweepResult {
  /** Checks whose deadline was added to the index if missing (with its timer). */
  deadlines: number;
  /** Owed flips settled: completed, or only pulled from the outbox when already stored. */
  flips: number;
  /** Notifications whose notify job was put back. */
  notifications: number;
}

/** Runs `fn` on successive batches of `source`, holding one batch in memory at a time; returns how many items there were. */
async function inBatches<T>(source: AsyncIterable<T>, fn: (batch: T[]) => Promise<unknown>): Promise<number> {
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
 * 1. Every check whose deadline is at most two sweep intervals ahead (or
 *    already past) gets its deadline added to the index if Redis has none (and
 *    a timer for it); an existing entry is left as it is. The horizon makes
 *    sure a deadline lost in Redis is back before it is due, not one interval
 *    late (index `{deadline: 1}`). A check still not down {@link OWED_STALE_MS}
 *    after its deadline was not woken in time (a timer later than its index
 *    entry, which two schedules of one check racing over two connections can
 *    leave): the sweep wakes a drain, which takes every due entry.
 * 2. Every outbox entry older than {@link OWED_STALE_MS} is settled: pulled
 *    when its flip is stored, otherwise completed (its flip and notifications
 *    written if missing; index `{outbox.recorded: 1}`).
 * 3. Every notification whose notify job was lost is put back on the `notify` queue.
 *
 * 1 and 2 are two queries, each served by its index on MongoDB; on FerretDB
 * the date ranges are pushed down to PostgreSQL (scripts/ferretdb/patches/
 * query.go.overlay), which an `$or` of them would not be.
 *
 * @param deps - Queues, clock, `settings.sweepIntervalMs` and notify settings.
 * @returns How many deadlines, flips and notifications were enqueued or completed.
 * @throws the MongoDB or Redis error (the next sweep tries again).
 */
export async function runSweep(deps: Pick<WorkerDeps, 'queues' | 'clock' | 'settings' | 'notify'>): Promise<SweepResult> {
  const now = deps.clock();
  const horizon = new Date(now.getTime() + 2 * deps.settings.sweepIntervalMs);
  const staleBefore = new Date(now.getTime() - OWED_STALE_MS);
  const notify = deps.notify ?? appConfig.notify;
  const dueChecks = Check.find({ deadline: { $lte: horizon }, status: { $ne: 'down' } }, { deadline: 1 })
    .lean<Pick<CheckDoc, '_id' | 'deadline'>[]>()
    .cursor({ batchSize: BATCH_SIZE });
  const owingChecks = Check.find({ 'outbox.recorded': { $lte: staleBefore } }, { projectId: 1, channels: 1, status: 1, nPings: 1, outbox: 1 })
    .lean<Pick<CheckDoc, '_id' | 'projectId' | 'channels' | 'status' | 'nPings' | 'outbox'>[]>()
    .cursor({ batchSize: BATCH_SIZE });
  let flips = 0;
  let overdue = 0;
  const [deadlines] = await Promise.all([
    inBatches(dueChecks, (batch) => {
      overdue += batch.filter((c) => c.deadline! <= staleBefore).length;
      return ensureDeadlines(deps.queues.deadlines, batch.map((c) => ({ checkId: c._id, at: c.deadline! })), now);
    }),
    inBatches(owingChecks, async (batch) => {
      const owed = batch.flatMap((check) => check.outbox.filter((e) => e.recorded <= staleBefore).map((entry) => ({ check, entry })));
      flips += owed.length;
      await settleOutbox({ queues: deps.queues, notify }, owed, deps.clock());
    }),
  ]);

  // After ensureDeadlines: every overdue check has its entry, due, for the drain to take.
  if (overdue > 0) await wakeDrain(deps.queues.deadlines, now.getTime());
  const notifications = await requeueStaleNotifications(deps, OWED_STALE_MS);
  if (deadlines + flips + notifications + overdue > 0) log.info({ deadlines, flips, notifications, overdue }, 'sweep enqueued');
  return { deadlines, flips, notifications };
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
  const queue = new Queue(QueueName.Sweep, bullOptions(connection));
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
    ...workerOptions(deps.connection),
    concurrency: 1,
  });
}
