/**
 * The `deadlines` consumer: when a check's delayed deadline job fires, re-read
 * the check from MongoDB (the truth) and store `down` if it really is
 * (behaviour.md §2.5 rows 12–13, §6 rule 2). Redis only wakes us up: a job
 * that fires early, late, twice or after a newer ping never flips wrongly.
 */
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Check, type CheckDoc } from '../shared/models/check.js';
import { deadlineOf, liveStatus } from '../shared/domain/status.js';
import { recordFlip } from '../shared/services/flips.js';
import { scheduleDeadline } from '../shared/queues/deadlines.js';
import { QueueName } from '../shared/queues/names.js';
import type { DeadlinePayload } from '../shared/queues/payloads.js';
import { logger } from '../shared/logger.js';
import type { WorkerDeps } from './deps.js';

const log = logger.child({ module: 'deadlines' });

/**
 * What a deadline job did:
 * - `gone`: the check was deleted;
 * - `down`: already stored down;
 * - `none`: no deadline is expected (new or paused with no run);
 * - `rescheduled`: not down yet (early job, or the deadline moved);
 * - `stale`: the check changed between read and write, another writer won;
 * - `flipped`: stored down and recorded the timeout flip.
 */
export type DeadlineOutcome = 'gone' | 'down' | 'none' | 'rescheduled' | 'stale' | 'flipped';

/**
 * Applies a passed deadline to one check (behaviour.md §6 rule 2, steps 3–5).
 *
 * The write is conditional on the status, `nPings` and `deadline` that were
 * read, so a ping, an update, a pause or another worker in between makes it
 * match nothing; only the writer that changed the row records the flip, whose
 * `created` is the computed going-down moment (behaviour.md §2.7 rule 4).
 * That write is atomic on MongoDB. FerretDB v1 applies updates as read then
 * write, so there two deadline jobs of one check must never run at once:
 * the deduplication in `scheduleDeadline` (keepLastIfActive) guarantees it.
 *
 * @param deps - Queues (reschedule, flip fan-out) and the clock.
 * @param checkId - The check's UUID.
 * @returns What was done.
 * @throws the MongoDB or Redis error; BullMQ retries the job.
 */
export async function processDeadline(
  deps: Pick<WorkerDeps, 'queues' | 'clock'>,
  checkId: string,
): Promise<DeadlineOutcome> {
  const check = await Check.findById(checkId).lean<CheckDoc>();
  if (!check) return 'gone';
  if (check.status === 'down') return 'down';
  const deadline = deadlineOf(check);
  if (!deadline) return 'none';
  const now = deps.clock();
  if (liveStatus(check, now) !== 'down') {
    await scheduleDeadline(deps.queues.deadlines, checkId, deadline, now);
    return 'rescheduled';
  }
  const res = await Check.updateOne(
    { _id: checkId, status: check.status, nPings: check.nPings, deadline: check.deadline },
    { $set: { status: 'down', deadline: null } },
  );
  if (res.modifiedCount !== 1) return 'stale';
  const change = { oldStatus: check.status, newStatus: 'down', reason: 'timeout' } as const;
  await recordFlip(deps.queues, check, change, deadline, now);
  log.info({ checkId, oldStatus: check.status, deadline, lateMs: now.getTime() - deadline.getTime() }, 'check went down');
  return 'flipped';
}

/**
 * Reads a job's payload.
 *
 * @throws UnrecoverableError when it has no check id (retrying cannot help).
 */
export function deadlinePayload(job: Pick<Job<unknown>, 'data'>): DeadlinePayload {
  const data = job.data as Partial<DeadlinePayload> | null;
  if (typeof data?.checkId !== 'string' || data.checkId === '') {
    throw new UnrecoverableError('deadline job without a checkId');
  }
  return { checkId: data.checkId };
}

/**
 * Starts the `deadlines` consumer, `settings.deadlineConcurrency` jobs at a time.
 *
 * @param deps - Connection, queues, clock and settings.
 */
export function deadlineWorker(deps: WorkerDeps): Worker<DeadlinePayload, DeadlineOutcome> {
  return new Worker<DeadlinePayload, DeadlineOutcome>(
    QueueName.Deadlines,
    (job) => processDeadline(deps, deadlinePayload(job).checkId),
    { connection: deps.connection, concurrency: deps.settings.deadlineConcurrency },
  );
}
