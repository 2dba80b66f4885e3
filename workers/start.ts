/**
 * The worker process's BullMQ workers, started and stopped together. Used by
 * `workers/main.ts` (the `worker` process) and by `npm start` (all in one).
 */
import type { Queue, Worker } from 'bullmq';
import { deadlineWorker } from './deadlines.js';
import { keepSweepScheduled, runSweep, scheduleSweep, sweepWorker } from './sweep.js';
import { notifyWorker } from './notify.js';
import { alertNow } from './alert-now.js';
import { replayJournals } from './journals.js';
import type { WorkerDeps, WorkerFactory } from './deps.js';
import { logger } from '../shared/logger.js';
import { reportRedisOutages } from '../shared/redis-outages.js';

const log = logger.child({ module: 'workers' });

/** One factory per queue the worker process consumes; adding a consumer is one line here. */
export const WORKERS: readonly WorkerFactory[] = [deadlineWorker, sweepWorker, notifyWorker];

/** Running workers. */
export interface RunningWorkers {
  workers: Worker[];
  /**
   * Stops taking jobs, waits for active jobs and alerts being sent to finish (alerts
   * still waiting for a slot are released to notify jobs), stops watching the sweep
   * scheduler, closes the sweep queue handle.
   */
  close(): Promise<void>;
}

/**
 * Starts every worker in {@link WORKERS}, schedules the repeating sweep (and
 * re-creates its scheduler should a Redis flush delete it) and runs one sweep
 * at once, so deadline and notify jobs lost, and flips left owed, while no worker ran, are back before
 * the first interval passes. The deadline worker sends its alerts through
 * `deps.alerts`, by default an {@link alertNow} of this process.
 *
 * @param deps - Connection, queues, clock and settings shared by all workers.
 * @param factories - Workers to start; {@link WORKERS} unless a test narrows it.
 * @throws the Redis error when the sweep cannot be scheduled.
 */
export async function startWorkers(
  deps: WorkerDeps,
  factories: readonly WorkerFactory[] = WORKERS,
): Promise<RunningWorkers> {
  const alerts = deps.alerts ?? alertNow(deps);
  const workers = factories.map((build) => build({ ...deps, alerts }));
  reportRedisOutages(deps.connection, log, workers);
  for (const worker of workers) {
    worker.on('failed', (job, err) =>
      log.warn({ err, queue: worker.name, jobId: job?.id, attemptsMade: job?.attemptsMade }, 'job failed'),
    );
  }
  let sweepQueue: Queue | undefined;
  let stopWatching: (() => Promise<void>) | undefined;
  const stopReplaying = replayJournals(deps);
  const close = async (): Promise<void> => {
    await stopReplaying();
    await stopWatching?.();
    alerts.stop();
    await Promise.all(workers.map((w) => w.close()));
    await alerts.idle();
    await sweepQueue?.close();
  };
  try {
    sweepQueue = await scheduleSweep(deps.connection, deps.settings.sweepIntervalMs);
  } catch (err) {
    await close();
    throw err;
  }
  reportRedisOutages(deps.connection, log, [sweepQueue]);
  stopWatching = keepSweepScheduled(sweepQueue, deps.settings.sweepIntervalMs);
  await runSweep(deps).catch((err: unknown) => log.error({ err }, 'first sweep failed; the scheduler retries'));
  return { workers, close };
}
