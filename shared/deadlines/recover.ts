/**
 * Each worker's fast recovery, every RECOVERY_INTERVAL_MS (default 1 s), so a killed worker or a Redis that lost its data costs seconds, not a sweep
 * interval:
 * 1. Redis lost its data (FLUSHALL, a restart without its AOF): a generation key this worker saw is gone or changed. The worker re-creates it, puts
 *    the sweep's scheduler back and runs a sweep at once (every deadline timer within its horizon rebuilt from the indexed `Check.deadline`), and
 *    puts back the notify job of every alert not yet delivered (a job finding its alert claimed waits for the claim).
 * 2. Owed work older than twice the interval: checks past their deadline and not down, flips owed in a check's outbox (a killed worker's, or lost
 *    deadline jobs'). They go through the deadline path itself (`applyDeadlines`), as a retried job would: the store flips each once, the fan-out
 *    inserts each notification once, and a claim makes each alert go once.
 */
import type { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { Check } from '../models/check.js';
import { config as appConfig } from '../config.js';
import type { WorkerDeps } from '../queues/deps.js';
import { requeueStaleNotifications } from '../alerts/requeue.js';
import { leaseMsOf } from '../alerts/lease.js';
import { applyDeadlines, completingHere } from './process.js';
import { runSweep, upsertSweepScheduler } from './sweep.js';
import { logger } from '../logger.js';

const log = logger.child({ module: 'recover' });
/** Owed checks taken per pass at most (the deadline path's batch). */
const MAX_OWED = 1000;

/** The Redis key whose loss tells that Redis lost its data. */
export function generationKey(prefix: string): string {
  return `${prefix}:generation`;
}

/** What one pass found. */
export interface RecoveryResult {
  /** Whether Redis had lost the generation key (and was repaired). */
  redisLost: boolean;
  /** Checks whose owed deadline or flips this pass completed. */
  owed: number;
}

/**
 * Step 1 above: compares the generation key with `seen` (the value this worker knew; null at start) and repairs when it is gone or changed.
 * @returns The generation now, and whether it was lost.
 * @throws the Redis or MongoDB error (the next pass tries again).
 */
async function checkGeneration(deps: WorkerDeps, sweepQueue: Queue, seen: string | null): Promise<{ generation: string; lost: boolean }> {
  const key = generationKey(appConfig.queuePrefix);
  let generation = await deps.connection.get(key);
  if (generation !== null && (seen === null || generation === seen)) return { generation, lost: false };
  if (generation === null) {
    await deps.connection.set(key, randomUUID(), 'NX');
    generation = (await deps.connection.get(key)) ?? '';
  }
  if (seen !== null) log.warn('Redis lost its data (generation key gone or changed); rebuilding deadline timers and alert jobs from MongoDB');
  await upsertSweepScheduler(sweepQueue, deps.settings.sweepIntervalMs);
  await runSweep(deps);
  // Every pending or sending alert (a lease ending within the lease's length is every one): their jobs went with the data.
  await requeueStaleNotifications(deps, -leaseMsOf(deps.notify ?? appConfig.notify));
  return { generation, lost: seen !== null };
}

/**
 * Step 2 above: the checks owing work since before `staleBefore`, through the deadline path.
 * @returns How many checks were taken (those whose flips this process is completing now are left alone).
 */
export async function completeOwedWork(deps: WorkerDeps, staleBefore: Date): Promise<number> {
  const [overdue, owing] = await Promise.all([
    Check.find({ deadline: { $lte: staleBefore }, status: { $ne: 'down' } }, { _id: 1 }).limit(MAX_OWED).lean<{ _id: string }[]>(),
    Check.find({ 'outbox.recorded': { $lte: staleBefore } }, { _id: 1 }).limit(MAX_OWED).lean<{ _id: string }[]>(),
  ]);
  // A check whose flips this process is completing is not stalled: its alerts are being sent (a mass down takes seconds).
  const ids = [...new Set([...overdue, ...owing].map((c) => c._id))].filter((id) => !completingHere(id));
  if (ids.length > 0) await applyDeadlines(deps, ids);
  return ids.length;
}

/**
 * Starts the passes, one at a time, every `intervalMs` milliseconds (the first at once).
 * @returns A function that stops them and waits for the running pass.
 */
export function watchRecovery(deps: WorkerDeps, sweepQueue: Queue, intervalMs: number): () => Promise<void> {
  let seen: string | null = null;
  let running: Promise<void> | undefined;
  const pass = async (): Promise<RecoveryResult> => {
    const { generation, lost } = await checkGeneration(deps, sweepQueue, seen);
    seen = generation;
    const owed = await completeOwedWork(deps, new Date(deps.clock().getTime() - 2 * intervalMs));
    if (owed > 0) log.info({ owed }, 'completed owed deadlines and flips');
    return { redisLost: lost, owed };
  };
  const tick = (): void => {
    running ??= pass()
      .then(() => undefined)
      .catch((err: unknown) => log.error({ err }, 'recovery pass failed; trying again next interval'))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(tick, intervalMs);
  tick();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
