/**
 * The reconciliation sweep: MongoDB is the truth and Redis only wakes workers, so a lost Redis (flush, failover, a failed add) and a crashed process
 * lose nothing. Every `SWEEP_INTERVAL_MS` it adds the deadline jobs Redis lost, completes flips left owed in checks' outboxes, and re-queues alerts
 * whose notify jobs were lost. Every step is idempotent and uses an index: two sweeps at once, or one racing a ping, do no harm.
 */
import { Queue, Worker } from 'bullmq';
import type { QueryFilter } from 'mongoose';
import type { Redis } from 'ioredis';
import { Check, type CheckDoc } from '../models/check.js';
import { wakeAt, type RuleState } from '../domain/timer-rules.js';
import type { DeadlinePayload } from '../queues/payloads.js';
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

/** The check fields {@link wakeAt} reads, so the sweep times a job as the ping and deadline paths do. */
const WAKE_FIELDS = {
  kind: 1, timeout: 1, grace: 1, schedule: 1, tz: 1, status: 1, lastPing: 1, lastStart: 1, lastStartRid: 1, manualResume: 1,
  deadline: 1, notifyLate: 1, repeatEvery: 1, lateFor: 1, remindAt: 1, remindN: 1, heldUntil: 1,
} as const;

/** A check as the job repair reads it. */
type Waking = RuleState & Pick<CheckDoc, '_id'>;

/**
 * The checks whose deadline job may be due by `horizon`, one indexed query per moment (each a plain filter, which any MongoDB-compatible server
 * serves from its index): the deadline of a check not down, every check up with `notifyLate` (its late warning is due at its grace start, which
 * is not stored: {@link wakeAt} computes it from `lastPing`), a down check's next reminder, and the end of the window holding a down alert.
 */
function wakingBy(horizon: Date): QueryFilter<CheckDoc>[] {
  return [
    { deadline: { $lte: horizon }, status: { $ne: 'down' } },
    { notifyLate: true, status: 'up' },
    { remindAt: { $lte: horizon }, status: 'down', repeatEvery: { $gt: 0 } },
    { heldUntil: { $lte: horizon } },
  ];
}

/**
 * Step 1 of {@link runSweep}: every check whose next wake time ({@link wakeAt}: late warning, deadline, reminder, window end) is at most `horizon`
 * gets its job at that moment if Redis has none; one whose wake time is before `staleBefore` gets its job replaced by one due `now` (late or lost).
 * A check two queries find is scheduled twice, to the same moment: the second add changes nothing.
 * @returns How many checks were due within the horizon.
 * @throws the MongoDB or Redis error.
 */
async function repairWakes(queue: Queue<DeadlinePayload>, now: Date, horizon: Date, staleBefore: Date): Promise<number> {
  const due = new Set<string>();
  const inBatches = { batchSize: BATCH_SIZE };
  const repair = async (batch: Waking[]): Promise<void> => {
    const wakes = batch.flatMap((check) => {
      const at = wakeAt(check);
      return at && at <= horizon ? [{ checkId: check._id, at }] : [];
    });
    for (const { checkId } of wakes) due.add(checkId);
    await Promise.all([
      scheduleDeadlines(queue, wakes.filter((w) => w.at <= staleBefore).map((w) => ({ ...w, at: now })), now, true),
      scheduleDeadlines(queue, wakes.filter((w) => w.at > staleBefore), now, false),
    ]);
  };
  await Promise.all(wakingBy(horizon).map((filter) => Check.find(filter, WAKE_FIELDS).lean<Waking>().cursor(inBatches).eachAsync(repair, inBatches)));
  return due.size;
}

/** What one sweep did. */
export interface SweepResult {
  /** Checks whose job is due within the horizon (deadline, late warning, reminder, window end), added if missing. */
  deadlines: number;
  /** Owed flips completed. */
  flips: number;
  /** Notifications whose notify job was put back. */
  notifications: number;
}

/**
 * One sweep:
 * 1. Every check whose next wake time (shared/domain/timer-rules.ts `wakeAt`: its late warning, deadline, reminder or window end) is at most two
 *    sweep intervals ahead gets its job at that moment if Redis has none, so a lost job is back before it is due; a check whose wake time passed
 *    more than {@link OWED_STALE_MS} ago gets its job replaced by one due now (late or lost).
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
  const owingChecks = Check.find({ 'outbox.recorded': { $lte: staleBefore } }, { projectId: 1, channels: 1, status: 1, tags: 1, outbox: 1, dependsOn: 1, held: 1 }).lean<Owing>();
  // One batch of BATCH_SIZE documents in memory at a time.
  const inBatches = { batchSize: BATCH_SIZE };
  let flips = 0;
  const [deadlines] = await Promise.all([
    repairWakes(deps.queues.deadlines, now, horizon, staleBefore),
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
