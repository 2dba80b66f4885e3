/**
 * Deadlines in Redis: an index the deadline worker drains in batches, and
 * timers that wake it.
 *
 * - The **index** is a sorted set (`<prefix>:deadlines:by-deadline`) with one member
 *   per check (its UUID), scored by the check's deadline in epoch milliseconds.
 *   Scheduling a check again replaces its score, so a check has exactly one
 *   pending deadline.
 * - A **timer** is the check's one delayed `deadlines` job (BullMQ deduplication
 *   id `deadline-<uuid>`, replace mode, payload `{at}`), due at its deadline; a
 *   newer schedule replaces the pending one, so timers never pile up. A timer only
 *   wakes a worker: the worker takes EVERY check whose deadline has passed from the
 *   index, up to {@link DRAIN_BATCH} per pass (workers/deadline-drain.ts), so a
 *   thousand checks due in the same instant are applied by the first timer to fire,
 *   in two batches, and the drain removes the other timers of the checks it settled.
 *
 * The index entries and the timers are sent together on the queue's connection,
 * the entries first: one connection runs commands in order, so a timer never
 * fires before its entry exists. They are not one transaction: if Redis fails
 * between the two, the sweep adds what is missing ({@link ensureDeadlines}).
 */
import { randomUUID } from 'node:crypto';
import type { JobsOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DeadlinePayload } from './payloads.js';

/** The most index entries the worker applies in one pass. */
export const DRAIN_BATCH = 500;

/** The index's key, in the queue's namespace (`<prefix>:deadlines:by-deadline`). */
export function deadlineIndexKey(queue: Pick<Queue, 'toKey'>): string {
  return queue.toKey('by-deadline');
}

/**
 * The ioredis connection the queue was opened on (`openQueues`): the index is written
 * on it, so its commands and the queue's run in the order they were sent.
 *
 * @throws Error when the queue was not opened on an ioredis connection.
 */
export function redisOf(queue: Pick<Queue, 'opts'>): Redis {
  const connection = queue.opts.connection as Partial<Redis> | undefined;
  if (typeof connection?.zadd !== 'function') throw new Error('the deadlines queue must be opened on an ioredis connection');
  return connection as Redis;
}

/** How a check's timer deduplication id starts. */
const TIMER_KEY_PREFIX = 'deadline-';

/** The deduplication id of a check's timer; never contains `:` (also the id of the one-job-per-check version's job). */
export function deadlineTimerKey(checkId: string): string {
  return `${TIMER_KEY_PREFIX}${checkId}`;
}

/**
 * The check a timer's deduplication id names ({@link deadlineTimerKey}), or undefined
 * for another job (a drain's own wake-up has none).
 */
export function checkIdOfTimerKey(deduplicationId: string | undefined): string | undefined {
  return deduplicationId?.startsWith(TIMER_KEY_PREFIX) ? deduplicationId.slice(TIMER_KEY_PREFIX.length) || undefined : undefined;
}

/** A check's deadline. */
export interface DeadlineAt {
  checkId: string;
  /** The deadline; a moment in the past is due at once. */
  at: Date;
}

/** How a job of the `deadlines` queue is retried and kept: five attempts, 1 s backoff doubling, failures kept for inspection. */
const TIMER_RETRIES = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: 1000,
} as const satisfies JobsOptions;

/**
 * A check's timer job. In replace mode it replaces the check's pending timer; one added while that
 * timer is active is kept and created when it finishes, so a reschedule is never lost. Without
 * replace mode, a pending timer is left as it is.
 *
 * @param now - Current time, to compute the delay in milliseconds.
 */
export function timerOf({ checkId, at }: DeadlineAt, now: Date, replace: boolean): { name: string; data: DeadlinePayload; opts: JobsOptions } {
  const id = deadlineTimerKey(checkId);
  return {
    name: 'deadline',
    data: { at: at.getTime() },
    opts: {
      delay: Math.max(0, at.getTime() - now.getTime()),
      deduplication: replace ? { id, replace: true, keepLastIfActive: true } : { id },
      ...TIMER_RETRIES,
    },
  };
}

/** `[score, member, score, member, …]` for ZADD. */
function scored(deadlines: readonly DeadlineAt[]): (string | number)[] {
  return deadlines.flatMap((d) => [d.at.getTime(), d.checkId]);
}

/**
 * (Re)schedules the deadlines of many checks, sent together: each check's index
 * entry gets its new deadline, and its timer is replaced.
 *
 * @param now - Current time, to compute each timer's delay in milliseconds.
 * @throws the Redis error when the queue cannot be reached.
 */
export async function scheduleDeadlines(queue: Queue<DeadlinePayload>, deadlines: readonly DeadlineAt[], now: Date = new Date()): Promise<void> {
  if (deadlines.length === 0) return;
  await Promise.all([
    redisOf(queue).zadd(deadlineIndexKey(queue), ...scored(deadlines)),
    queue.addBulk(deadlines.map((d) => timerOf(d, now, true))),
  ]);
}

/**
 * (Re)schedules one check's deadline.
 *
 * @throws the Redis error when the queue cannot be reached.
 */
export async function scheduleDeadline(queue: Queue<DeadlinePayload>, checkId: string, at: Date, now: Date = new Date()): Promise<void> {
  await scheduleDeadlines(queue, [{ checkId, at }], now);
}

/**
 * Adds a timer of its own (not a check's) that wakes a drain of the index at once:
 * for the sweep when a check is overdue, and for a drain handing over to a new job.
 *
 * @param atMs - The moment to drain up to at least, epoch milliseconds.
 * @throws the Redis error when the queue cannot be reached.
 */
export async function wakeDrain(queue: Queue<DeadlinePayload>, atMs: number): Promise<void> {
  await queue.add('deadline', { at: atMs }, { jobId: `drain-${randomUUID()}`, ...TIMER_RETRIES });
}

/**
 * For the sweep, from the deadlines MongoDB stores: a check whose index entry is
 * missing, or later than MongoDB's deadline (an entry due too early only makes the
 * worker re-read the check, while one due too late would make an alert late), gets
 * its entry and its timer set to that deadline; every other check keeps both as
 * they are, a missing timer only being added. What a Redis flush lost comes back,
 * and no pending timer is replaced for nothing.
 *
 * @returns How many entries were missing or late.
 * @throws the Redis error when the queue cannot be reached.
 */
export async function ensureDeadlines(queue: Queue<DeadlinePayload>, deadlines: readonly DeadlineAt[], now: Date = new Date()): Promise<number> {
  if (deadlines.length === 0) return 0;
  const redis = redisOf(queue);
  const current = await redis.zmscore(deadlineIndexKey(queue), ...deadlines.map((d) => d.checkId));
  const off = new Set(deadlines.filter((d, i) => current[i] === null || Number(current[i]) > d.at.getTime()));
  await Promise.all([
    off.size > 0 && redis.zadd(deadlineIndexKey(queue), 'LT', ...scored([...off])),
    queue.addBulk(deadlines.map((d) => timerOf(d, now, off.has(d)))),
  ]);
  return off.size;
}

/**
 * The check's pending deadline in the index, or null when it has none.
 *
 * @throws the Redis error when the queue cannot be reached.
 */
export async function pendingDeadline(queue: Queue<DeadlinePayload>, checkId: string): Promise<Date | null> {
  const score = await redisOf(queue).zscore(deadlineIndexKey(queue), checkId);
  return score === null ? null : new Date(Number(score));
}
