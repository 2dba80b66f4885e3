/**
 * The `deadlines` consumer: when a deadline timer fires, take every check whose
 * deadline has passed from the Redis index, re-read those checks from MongoDB
 * (the truth) and store `down` where it really is (behaviour.md §2.5 rows
 * 12–13, §6 rule 2). Redis only wakes us up: an entry that is due early, late,
 * twice or after a newer ping never flips wrongly.
 *
 * Due checks are applied in batches of up to 500, so a thousand checks going
 * down in the same second are taken by the first timer to fire, at a handful
 * of database round trips per batch:
 * one read of the checks, one bulk write storing `down` with each check's owed
 * flip in its outbox (the channels are read at the same time), then the outbox
 * completion (notifications, flips, and the alerts sent at once by the
 * worker's {@link AlertNow}, or notify jobs without one); with an AlertNow, the
 * completed entries are pulled once their alerts are out.
 */
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { Check, type CheckDoc } from '../shared/models/check.js';
import { deadlineOf, liveStatus } from '../shared/domain/status.js';
import { completeOutbox, loadChannels, outboxEntry, pullEntries, type OutboxDeps, type OwedFlip } from '../shared/services/outbox.js';
import { checkIdOfTimerKey, pendingDeadline, scheduleDeadlines, timerOf, type DeadlineAt } from '../shared/queues/deadlines.js';
import { QueueName } from '../shared/queues/names.js';
import { workerOptions } from '../shared/queues/index.js';
import type { DeadlinePayload } from '../shared/queues/payloads.js';
import { config as appConfig } from '../shared/config.js';
import { bulkWriteChunked, rawCollection } from '../shared/bulk.js';
import { crashPoint } from '../shared/crash.js';
import { logger } from '../shared/logger.js';
import type { WorkerDeps } from './deps.js';
import type { AlertNow } from './alert-now.js';
import { drainDeadlines, drainLeaseMs, markDue, type ApplyPass } from './deadline-drain.js';

const log = logger.child({ module: 'deadlines' });

/**
 * What applying a check's deadline did:
 * - `gone`: the check was deleted;
 * - `down`: already stored down (any flip it still owed was completed);
 * - `none`: no deadline is expected (new or paused with no run);
 * - `rescheduled`: not down yet (due early, or the deadline moved);
 * - `stale`: the check changed between read and write, another writer won;
 * - `flipped`: stored down and recorded the timeout flip.
 */
export type DeadlineOutcome = 'gone' | 'down' | 'none' | 'rescheduled' | 'stale' | 'flipped';

/** What applying deadlines needs. */
export type DeadlineDeps = Pick<WorkerDeps, 'queues' | 'clock' | 'notify' | 'alerts'>;

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
 * @param reschedule - Moves the deadlines of checks not due yet (default: {@link scheduleDeadlines};
 *   the drain passes a compare-and-set on the index entries it took).
 * @returns What was done, per check UUID.
 * @throws the MongoDB or Redis error; BullMQ retries the jobs.
 */
export async function applyDeadlines(
  deps: DeadlineDeps,
  checkIds: readonly string[],
  reschedule: (early: readonly DeadlineAt[], now: Date) => Promise<void> = (early, now) => scheduleDeadlines(deps.queues.deadlines, early, now),
): Promise<Map<string, DeadlineOutcome>> {
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
    reschedule(early, now),
  ]);
  for (const check of due) outcomes.set(check._id, owed.some((o) => o.check._id === check._id) ? 'flipped' : 'stale');
  crashPoint('deadline-stored');
  const notify = deps.notify ?? appConfig.notify;
  const completed = [...owed, ...leftovers];
  // With alerts sent at once, the entries are pulled once those alerts are out: a write per check
  // less while they are being delivered (the sweep pulls them should the worker stop first).
  await completeOutbox({ queues: deps.queues, notify, sendNow: sendNowOf(deps.alerts, checks), pull: !deps.alerts }, completed, deps.clock(), channels);
  deps.alerts?.whenSent(() => pullEntries(completed));
  for (const { check, entry } of owed) {
    log.info({ checkId: check._id, oldStatus: entry.oldStatus, lateMs: now.getTime() - entry.at.getTime() }, 'check went down');
  }
  return outcomes;
}

/**
 * Hands new alerts to `alerts` with their checks as {@link applyDeadlines}
 * read them (an alert shows the name, tags, description and last ping, which
 * the down write leaves as they were; none of these checks is paused).
 */
function sendNowOf(alerts: AlertNow | undefined, checks: readonly CheckDoc[]): OutboxDeps['sendNow'] {
  if (!alerts) return undefined;
  const byId = new Map(checks.map((check) => [check._id, check]));
  return {
    leaseMs: alerts.leaseMs,
    send: (claimed) => alerts.send(claimed.map((c) => ({ ...c, check: byId.get(c.notification.checkId) ?? null }))),
  };
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
    // As built, without mongoose's casting (the values are of their stored types; see recordDeliveredMany).
    (chunk) => rawCollection(Check).bulkWrite(chunk, { ordered: false }),
  );
  if (matched === owed.length) return owed;
  // Some writes lost to a concurrent one: only the checks holding our entry flipped.
  const stored = await Check.find({ _id: { $in: due.map((c) => c._id) } }, { outbox: 1 }).lean<Pick<CheckDoc, '_id' | 'outbox'>[]>();
  const held = new Set(stored.flatMap((c) => c.outbox.map((e) => String(e._id))));
  return owed.filter((o) => held.has(String(o.entry._id)));
}

/** Outcomes after which a check's index entry is removed (unless its score changed meanwhile). */
const SETTLED: ReadonlySet<DeadlineOutcome> = new Set<DeadlineOutcome>(['gone', 'down', 'none', 'flipped']);

/**
 * Applies one check's deadline (alone, outside the index).
 *
 * @returns What was done.
 */
export async function processDeadline(deps: DeadlineDeps, checkId: string): Promise<DeadlineOutcome> {
  return (await applyDeadlines(deps, [checkId])).get(checkId)!;
}

/**
 * Reads a job's payload: a timer (`at`, epoch milliseconds) or a check from the one-job-per-check version (`checkId`).
 *
 * @throws UnrecoverableError when it has neither (retrying cannot help).
 */
export function deadlinePayload(job: Pick<Job<unknown>, 'data'>): DeadlinePayload {
  const data = job.data as Partial<DeadlinePayload> | null;
  if (typeof data?.checkId === 'string' && data.checkId !== '') return { checkId: data.checkId };
  if (typeof data?.at === 'number' && Number.isFinite(data.at)) return { at: data.at };
  throw new UnrecoverableError('deadline job without a checkId or a moment');
}

/**
 * Drains the deadline index (workers/deadline-drain.ts): every check due up to
 * now (or `atMs`, if later), in passes of up to 500 applied with {@link applyDeadlines}.
 *
 * @param redis - The worker's Redis connection.
 * @param atMs - The waking timer's moment, epoch milliseconds.
 * @returns How many index entries were taken (0 when another worker drains).
 * @throws the MongoDB or Redis error, or a lost drain lease (the timer is retried).
 */
export async function drainDue(deps: DeadlineDeps, redis: Redis, atMs: number): Promise<number> {
  const apply: ApplyPass = async (ids, reschedule) => {
    const outcomes = await applyDeadlines(deps, ids, (early) => reschedule(early));
    return new Set(ids.filter((id) => SETTLED.has(outcomes.get(id)!)));
  };
  const nowMs = () => deps.clock().getTime();
  return drainDeadlines({ redis, queue: deps.queues.deadlines, apply, nowMs, leaseMs: drainLeaseMs(appConfig.jobLockMs) }, atMs);
}

/**
 * After a timer's drain: if the timer's check (from its deduplication id) has an
 * index entry later than the timer's moment, adds the check's timer for that entry.
 * Two schedules of one check sent at once from two connections (two web processes,
 * or a ping and a drain's reschedule) can reach Redis as entry of the newer, then
 * timer of the newer, then timer of the older, which replaces it: the entry's
 * deadline would then have no timer until the sweep. The timer added here, while
 * this one is active, is created when it ends (`keepLastIfActive`), and checks again
 * when it fires.
 *
 * @param atMs - The timer's moment, epoch milliseconds.
 * @param now - Current time, for the new timer's delay.
 * @throws the Redis error (the timer is retried, and drains again for nothing).
 */
async function keepOwnTimer(queue: DeadlineDeps['queues']['deadlines'], job: Pick<Job, 'deduplicationId'>, atMs: number, now: Date): Promise<void> {
  const checkId = checkIdOfTimerKey(job.deduplicationId);
  if (!checkId) return;
  const score = await pendingDeadline(queue, checkId);
  if (score && score.getTime() > atMs) await queue.addBulk([timerOf({ checkId, at: score }, now, true)]);
}

/**
 * Starts the `deadlines` consumer, `settings.deadlineConcurrency` timers at a
 * time. Each timer wakes a drain of the index, then makes sure its check's entry,
 * if later, has a timer ({@link keepOwnTimer}); a job naming a check (left by the
 * one-job-per-check version) first marks that check due.
 *
 * @param deps - Connection, queues, clock and settings.
 */
export function deadlineWorker(deps: WorkerDeps): Worker<DeadlinePayload, number> {
  return new Worker<DeadlinePayload, number>(
    QueueName.Deadlines,
    async (job) => {
      const { checkId, at } = deadlinePayload(job);
      const now = deps.clock().getTime();
      if (checkId) await markDue(deps.connection, deps.queues.deadlines, checkId, now);
      const taken = await drainDue(deps, deps.connection, at ?? now);
      if (at !== undefined) await keepOwnTimer(deps.queues.deadlines, job, at, deps.clock());
      return taken;
    },
    { ...workerOptions(deps.connection), concurrency: deps.settings.deadlineConcurrency },
  );
}
