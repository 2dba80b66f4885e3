/**
 * The reconciliation sweep: MongoDB is the truth and Redis only wakes workers, so a lost Redis (flush, failover, a failed add) and a crashed process
 * lose nothing. Every `SWEEP_INTERVAL_MS` it adds the deadline jobs Redis lost, completes flips left owed in checks' outboxes, and re-queues alerts
 * whose notify jobs were lost. Every step is idempotent and uses an index: two sweeps at once, or one racing a ping, do no harm.
 */
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { Check, type CheckDoc } from '../models/check.js';
import { config as appConfig } from '../config.js';
import { bullOptions, workerOptions } from '../queues/index.js';
import { QueueName } from '../queues/names.js';
import type { WorkerDeps } from '../queues/deps.js';
import { completeOwed, type OwingCheck } from '../alerts/outbox.js';
import { requeueStaleNotifications } from '../alerts/requeue.js';
import { scheduleDeadlines } from './schedule.js';
import { logger } from '../logger.js';

const log = logger.child({ module: 'sweep' });
/** Documents read per cursor batch and jobs added at once. */
const BATCH_SIZE = 1000;
/** An outbox entry or pending notification younger than this (milliseconds) is left alone: its writer is probably still completing it. */
export const OWED_STALE_MS = 10_000;
/** The id of the repeating sweep job scheduler. */
export const SWEEP_SCHEDULER_ID = 'sweep';

/** A check with flips owed, as the sweep reads it. */
type Owing = OwingCheck & Pick<CheckDoc, 'outbox'>;

/** What one sweep did. */
export interface SweepResult {
  /** Checks due within the horizon whose deadline job was added if missing. */
  deadlines: number;
  /** Owed flips completed. */
  flips: number;
  /** Notifications whose notify job was put back. */
  notifications: number;
}

/**
 * One sweep:
 * 1. Every check not down whose deadline is at most two sweep intervals ahead gets its deadline job if Redis has none, so a lost job is back before
 *    it is due; a check still not down {@link OWED_STALE_MS} after its deadline gets its job replaced by one due now (late or lost). The same for a
 *    down check's next reminder (`remindAt`, shared/domain/timer-rules.ts).
 * 2. Every outbox entry older than {@link OWED_STALE_MS} is completed.
 * 3. Every notification whose notify job was lost is put back on the queue.
 * @returns How many deadlines, flips and notifications were looked at or repaired.
 * @throws the MongoDB or Redis error (the next sweep tries again).
 */
export async function runSweep(deps: Pick<WorkerDeps, 'queues' | 'clock' | 'settings' | 'notify'>): Promise<SweepResult> {
  const now = deps.clock();
  const horizon = new Date(now.getTime() + 2 * deps.settings.sweepIntervalMs);
  const staleBefore = new Date(now.getTime() - OWED_STALE_MS);
  const notify = deps.notify ?? appConfig.notify;
  const dueChecks = Check.find({ deadline: { $lte: horizon }, status: { $ne: 'down' } }, { deadline: 1 }).lean<Pick<CheckDoc, '_id' | 'deadline'>>();
  // A down check's reminder (`repeat_every`) is timed by the same job.
  const reminding = Check.find({ remindAt: { $lte: horizon }, status: 'down', repeatEvery: { $gt: 0 } }, { remindAt: 1 }).lean<Pick<CheckDoc, '_id' | 'remindAt'>>();
  // And the end of a maintenance window that held a down alert.
  const holding = Check.find({ heldUntil: { $lte: horizon } }, { heldUntil: 1 }).lean<Pick<CheckDoc, '_id' | 'heldUntil'>>();
  const owingChecks = Check.find({ 'outbox.recorded': { $lte: staleBefore } }, { projectId: 1, channels: 1, status: 1, tags: 1, outbox: 1, dependsOn: 1, held: 1 }).lean<Owing>();
  // One batch of BATCH_SIZE documents in memory at a time.
  const inBatches = { batchSize: BATCH_SIZE };
  let deadlines = 0;
  let flips = 0;
  await Promise.all([
    dueChecks.cursor(inBatches).eachAsync(async (batch: Pick<CheckDoc, '_id' | 'deadline'>[]) => {
      deadlines += batch.length;
      const [overdue, ahead] = [batch.filter((c) => c.deadline! <= staleBefore), batch.filter((c) => c.deadline! > staleBefore)];
      await Promise.all([
        scheduleDeadlines(deps.queues.deadlines, overdue.map((c) => ({ checkId: c._id, at: now })), now, true),
        scheduleDeadlines(deps.queues.deadlines, ahead.map((c) => ({ checkId: c._id, at: c.deadline! })), now, false),
      ]);
    }, inBatches),
    reminding.cursor(inBatches).eachAsync(async (batch: Pick<CheckDoc, '_id' | 'remindAt'>[]) => {
      deadlines += batch.length;
      const [overdue, ahead] = [batch.filter((c) => c.remindAt! <= staleBefore), batch.filter((c) => c.remindAt! > staleBefore)];
      await Promise.all([
        scheduleDeadlines(deps.queues.deadlines, overdue.map((c) => ({ checkId: c._id, at: now })), now, true),
        scheduleDeadlines(deps.queues.deadlines, ahead.map((c) => ({ checkId: c._id, at: c.remindAt! })), now, false),
      ]);
    }, inBatches),
    holding.cursor(inBatches).eachAsync(async (batch: Pick<CheckDoc, '_id' | 'heldUntil'>[]) => {
      deadlines += batch.length;
      const [overdue, ahead] = [batch.filter((c) => c.heldUntil! <= staleBefore), batch.filter((c) => c.heldUntil! > staleBefore)];
      await Promise.all([
        scheduleDeadlines(deps.queues.deadlines, overdue.map((c) => ({ checkId: c._id, at: now })), now, true),
        scheduleDeadlines(deps.queues.deadlines, ahead.map((c) => ({ checkId: c._id, at: c.heldUntil! })), now, false),
      ]);
    }, inBatches),
    owingChecks.cursor(inBatches).eachAsync(async (batch: Owing[]) => {
      const owed = batch.flatMap((check) => check.outbox.filter((e) => e.recorded <= staleBefore).map((entry) => ({ check, entry })));
      flips += owed.length;
      await completeOwed({ queues: deps.queues, notify }, owed, deps.clock());
    }, inBatches),
  ]);
  const notifications = await requeueStaleNotifications(deps, OWED_STALE_MS);
  if (flips + notifications > 0) log.info({ deadlines, flips, notifications }, 'sweep repaired');
  return { deadlines, flips, notifications };
}

/** Upserts the repeating sweep job scheduler, every `intervalMs` milliseconds. */
export async function upsertSweepScheduler(queue: Queue, intervalMs: number): Promise<void> {
  await queue.upsertJobScheduler(SWEEP_SCHEDULER_ID, { every: intervalMs }, { name: 'sweep', opts: { removeOnComplete: true, removeOnFail: 100 } });
}

/** Makes the sweep repeat every `intervalMs` milliseconds across all workers (idempotent); returns the queue handle to close. */
export async function scheduleSweep(connection: Redis, intervalMs: number): Promise<Queue> {
  const queue = new Queue(QueueName.Sweep, bullOptions(connection));
  await upsertSweepScheduler(queue, intervalMs);
  return queue;
}

/** Re-creates the sweep's scheduler whenever a Redis flush deleted it, looking every `intervalMs` milliseconds; returns a stop function. */
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

/** Starts the `sweep` consumer, one sweep at a time. */
export function sweepWorker(deps: WorkerDeps): Worker<unknown, SweepResult> {
  return new Worker<unknown, SweepResult>(QueueName.Sweep, () => runSweep(deps), { ...workerOptions(deps.connection), concurrency: 1 });
}
