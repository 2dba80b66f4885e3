/**
 * The worker process's processors, started and stopped together: the deadline path (shared/deadlines/), the alert path (shared/alerts/notify.ts), the
 * sweep, and the replay of dead web processes' ping journals. Used by `workers/main.ts` and by `npm start` (all in one).
 */
import type { Worker } from 'bullmq';
import { deadlineWorker } from '../shared/deadlines/process.js';
import { keepSweepScheduled, runSweep, scheduleSweep, sweepWorker } from '../shared/deadlines/sweep.js';
import { watchRecovery } from '../shared/deadlines/recover.js';
import { notifyWorker } from '../shared/alerts/notify.js';
import { reportWorker } from '../shared/reports/run.js';
import { replayJournals } from '../shared/pings/replay.js';
import type { WorkerDeps, WorkerFactory } from '../shared/queues/deps.js';
import { logger } from '../shared/logger.js';
import { reportRedisOutages } from '../shared/redis-outages.js';

const log = logger.child({ module: 'workers' });
/** One factory per queue the worker process consumes; adding a consumer is one line here. */
export const WORKERS: readonly WorkerFactory[] = [deadlineWorker, sweepWorker, notifyWorker, reportWorker];

/** Running workers. */
export interface RunningWorkers {
  workers: Worker[];
  /** Stops taking jobs, waits for active ones, stops the journal replay and the sweep scheduler's upkeep. */
  close(): Promise<void>;
}

/**
 * Starts every worker of `factories` ({@link WORKERS} unless a test narrows it), schedules the repeating sweep (and re-creates its scheduler should a
 * Redis flush delete it), runs one sweep at once, so what was lost while no worker ran is back before the first interval, and, given
 * `settings.recoveryIntervalMs`, the recovery passes (owed work of a killed worker, a Redis that lost its data).
 * @throws the Redis error when the sweep cannot be scheduled.
 */
export async function startWorkers(deps: WorkerDeps, factories: readonly WorkerFactory[] = WORKERS): Promise<RunningWorkers> {
  const sweepQueue = await scheduleSweep(deps.connection, deps.settings.sweepIntervalMs);
  const workers = factories.map((build) => build(deps));
  reportRedisOutages(deps.connection, log, [...workers, sweepQueue]);
  for (const worker of workers) {
    worker.on('failed', (job, err) => log.warn({ err, queue: worker.name, jobId: job?.id, attemptsMade: job?.attemptsMade }, 'job failed'));
  }
  const stopReplaying = replayJournals(deps);
  const stopWatching = keepSweepScheduled(sweepQueue, deps.settings.sweepIntervalMs);
  const { recoveryIntervalMs } = deps.settings;
  const stopRecovering = recoveryIntervalMs === undefined ? () => Promise.resolve() : watchRecovery(deps, sweepQueue, recoveryIntervalMs);
  const close = async (): Promise<void> => {
    await Promise.all([stopWatching(), stopReplaying(), stopRecovering()]);
    await Promise.all(workers.map((w) => w.close()));
    await sweepQueue.close();
  };
  await runSweep(deps).catch((err: unknown) => log.error({ err }, 'first sweep failed; the scheduler retries'));
  return { workers, close };
}
