/**
 * A check's deadline in Redis: ONE delayed job of the `deadlines` queue per check (deduplication id `deadline-<uuid>`), due at `Check.deadline`, the
 * truth, or before it. A write that brings a deadline earlier replaces the job; a ping that only pushes it later leaves the job to fire early, and
 * the worker then moves it. The job only wakes a worker, which re-reads the check (shared/deadlines/process.ts); the sweep repairs a lost job from
 * MongoDB's `deadline` index.
 */
import type { JobsOptions, Queue } from 'bullmq';
import type { DeadlinePayload } from '../queues/payloads.js';

/** The deduplication id of a check's deadline job; never contains `:`. */
export function deadlineJobKey(checkId: string): string {
  return `deadline-${checkId}`;
}

/** A check's deadline. */
export interface DeadlineAt {
  checkId: string;
  /** The going-down moment; a moment in the past is due at once. */
  at: Date;
}

/** Five attempts, 1 s backoff doubling, failures kept for inspection. */
const RETRIES = { attempts: 5, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: 1000 } as const satisfies JobsOptions;

/**
 * A check's deadline job, delayed (milliseconds) from `now`. With `replace`, it replaces the check's pending job (one added while that job is running
 * is created when it finishes, so a move is never lost); without, a pending job is left as it is.
 */
function jobOf({ checkId, at }: DeadlineAt, now: Date, replace: boolean): { name: string; data: DeadlinePayload; opts: JobsOptions } {
  const id = deadlineJobKey(checkId);
  return {
    name: 'deadline',
    data: { checkId },
    opts: { delay: Math.max(0, at.getTime() - now.getTime()), deduplication: replace ? { id, replace: true, keepLastIfActive: true } : { id }, ...RETRIES },
  };
}

/**
 * Moves the deadline jobs of many checks, one Redis round trip; each job's delay runs from `now`.
 * @param replace - false only adds jobs that are missing (the sweep's repair).
 * @throws the Redis error (the sweep adds what is missing).
 */
export async function scheduleDeadlines(queue: Queue<DeadlinePayload>, deadlines: readonly DeadlineAt[], now: Date, replace = true): Promise<void> {
  if (deadlines.length > 0) await queue.addBulk(deadlines.map((d) => jobOf(d, now, replace)));
}
