/**
 * The `deadlines` consumer: when a check's delayed deadline job fires, re-read
 * the check from MongoDB (the truth) and store `down` if it really is
 * (behaviour.md §2.5 rows 12–13, §6 rule 2). Redis only wakes us up: a job
 * that fires early, late, twice or after a newer ping never flips wrongly.
 *
 * Jobs that fire together are applied together (a batch per few
 * milliseconds, see {@link deadlineBatcher}), so a thousand checks going down
 * in the same second cost a handful of database round trips, not thousands:
 * one read of the checks, one bulk write storing `down` with each check's
 * owed flip in its outbox (the channels are read at the same time), then the
 * outbox completion (notifications, flips, notify jobs).
 */
import DataLoader from 'dataloader';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Check, type CheckDoc } from '../shared/models/check.js';
import { deadlineOf, liveStatus } from '../shared/domain/status.js';
import { completeOutbox, loadChannels, outboxEntry, type OwedFlip } from '../shared/services/outbox.js';
import { scheduleDeadlines } from '../shared/queues/deadlines.js';
import { QueueName } from '../shared/queues/names.js';
import { workerOptions } from '../shared/queues/index.js';
import type { DeadlinePayload } from '../shared/queues/payloads.js';
import { config as appConfig } from '../shared/config.js';
import { bulkWriteChunked } from '../shared/bulk.js';
import { crashPoint } from '../shared/crash.js';
import { logger } from '../shared/logger.js';
import type { WorkerDeps } from './deps.js';

const log = logger.child({ module: 'deadlines' });

/** Longest a fired job waits for others to share its batch, milliseconds. */
const BATCH_WINDOW_MS = 2;
/** Most checks applied in one batch. */
const MAX_BATCH = 500;

/**
 * What a deadline job did:
 * - `gone`: the check was deleted;
 * - `down`: already stored down (any flip it still owed was completed);
 * - `none`: no deadline is expected (new or paused with no run);
 * - `rescheduled`: not down yet (early job, or the deadline moved);
 * - `stale`: the check changed between read and write, another writer won;
 * - `flipped`: stored down and recorded the timeout flip.
 */
export type DeadlineOutcome = 'gone' | 'down' | 'none' | 'rescheduled' | 'stale' | 'flipped';

/** What applying deadlines needs. */
export type DeadlineDeps = Pick<WorkerDeps, 'queues' | 'clock' | 'notify'>;

/**
 * Applies passed deadlines to a batch of checks (behaviour.md §6 rule 2).
 *
 * Each down write is conditional on the status, `nPings` and `deadline` that
 * were read, so a ping, an update, a pause or another worker in between makes
 * it match nothing; the same write pushes the timeout flip, dated at the
 * computed going-down moment (behaviour.md §2.7 rule 4), into the check's
 * outbox. A check already down with an outbox left by a crashed attempt gets
 * that outbox completed.
 *
 * @param deps - Queues (reschedules, notify jobs), clock and notify settings.
 * @param checkIds - Check UUIDs; repeats are applied once.
 * @returns What was done, per check UUID.
 * @throws the MongoDB or Redis error; BullMQ retries the jobs.
 */
export async function applyDeadlines(deps: DeadlineDeps, checkIds: readonly string[]): Promise<Map<string, DeadlineOutcome>> {
  const outcomes = new Map<string, DeadlineOutcome>(checkIds.map((id) => [id, 'gone']));
  const checks = await Check.find({ _id: { $in: [...outcomes.keys()] } }).lean<CheckDoc[]>();
  const now = deps.clock();
  const leftovers: OwedFlip[] = [];
  const due: CheckDoc[] = [];
  const early: { checkId: string; at: Date }[] = [];
  for (const check of checks) {
    const deadline = deadlineOf(check);
    if (check.status === 'down') {
      outcomes.set(check._id, 'down');
      leftovers.push(...check.outbox.map((entry) => ({ check, entry })));
    } else if (!deadline) {
      outcomes.set(check._id, 'none');
    } else if (liveStatus(check, now) !== 'down') {
      outcomes.set(check._id, 'rescheduled');
      early.push({ checkId: check._id, at: deadline });
    } else {
      due.push(check);
    }
  }
  const [owed, channels] = await Promise.all([
    storeDown(due, now),
    loadChannels([...due, ...leftovers.map(({ check }) => check)]),
    scheduleDeadlines(deps.queues.deadlines, early, now),
  ]);
  for (const check of due) outcomes.set(check._id, owed.some((o) => o.check._id === check._id) ? 'flipped' : 'stale');
  crashPoint('deadline-stored');
  const notify = deps.notify ?? appConfig.notify;
  await completeOutbox({ queues: deps.queues, notify }, [...owed, ...leftovers], deps.clock(), channels);
  for (const { check, entry } of owed) {
    log.info({ checkId: check._id, oldStatus: entry.oldStatus, lateMs: now.getTime() - entry.at.getTime() }, 'check went down');
  }
  return outcomes;
}

/**
 * Stores `down` on every due check with one bulk write, each guarded by what
 * was read and carrying its owed flip.
 *
 * @returns The flips owed by the writes that matched.
 */
async function storeDown(due: readonly CheckDoc[], now: Date): Promise<OwedFlip[]> {
  if (due.length === 0) return [];
  const owed = due.map((check) => {
    const entry = outboxEntry({ oldStatus: check.status, newStatus: 'down', reason: 'timeout' }, deadlineOf(check)!, now);
    return { check: { ...check, status: 'down' as const, deadline: null, outbox: [...check.outbox, entry] }, entry, read: check };
  });
  const matched = await bulkWriteChunked(
    owed.map(({ read, entry }) => ({
      updateOne: {
        filter: { _id: read._id, status: read.status, nPings: read.nPings, deadline: read.deadline },
        update: { $set: { status: 'down' as const, deadline: null }, $push: { outbox: entry } },
      },
    })),
    (chunk) => Check.bulkWrite(chunk, { ordered: false }),
  );
  if (matched === owed.length) return owed;
  // Some writes lost to a concurrent one: only the checks holding our entry flipped.
  const stored = await Check.find({ _id: { $in: due.map((c) => c._id) } }, { outbox: 1 }).lean<Pick<CheckDoc, '_id' | 'outbox'>[]>();
  const held = new Set(stored.flatMap((c) => c.outbox.map((e) => String(e._id))));
  return owed.filter((o) => held.has(String(o.entry._id)));
}

/**
 * A batcher of deadline jobs: jobs that fire within {@link BATCH_WINDOW_MS}
 * of each other share one {@link applyDeadlines} call.
 *
 * @returns `load(checkId)` resolves with that check's outcome.
 */
export function deadlineBatcher(deps: DeadlineDeps): DataLoader<string, DeadlineOutcome> {
  return new DataLoader<string, DeadlineOutcome>(
    async (ids) => {
      const outcomes = await applyDeadlines(deps, ids);
      return ids.map((id) => outcomes.get(id)!);
    },
    { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (run) => setTimeout(run, BATCH_WINDOW_MS) },
  );
}

/**
 * Applies one check's deadline (alone, without batching).
 *
 * @returns What was done.
 */
export async function processDeadline(deps: DeadlineDeps, checkId: string): Promise<DeadlineOutcome> {
  return (await applyDeadlines(deps, [checkId])).get(checkId)!;
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
 * Starts the `deadlines` consumer, `settings.deadlineConcurrency` jobs at a
 * time; the jobs running at once are applied in shared batches.
 *
 * @param deps - Connection, queues, clock and settings.
 */
export function deadlineWorker(deps: WorkerDeps): Worker<DeadlinePayload, DeadlineOutcome> {
  const batcher = deadlineBatcher(deps);
  return new Worker<DeadlinePayload, DeadlineOutcome>(
    QueueName.Deadlines,
    (job) => batcher.load(deadlinePayload(job).checkId),
    { ...workerOptions(deps.connection), concurrency: deps.settings.deadlineConcurrency },
  );
}
