/**
 * Scheduling of deadline jobs: exactly ONE pending delayed job per check,
 * due at its deadline. A newer schedule replaces the pending delayed job
 * (BullMQ deduplication, replace mode); one added while the job is active is
 * kept and created when it finishes, so a reschedule is never lost. The sweep
 * only adds a job where none exists ({@link ensureDeadlines}).
 */
import type { JobsOptions, Queue } from 'bullmq';
import type { DeadlinePayload } from './payloads.js';

/** The deduplication id of a check's deadline job; never contains `:`. */
export function deadlineJobKey(checkId: string): string {
  return `deadline-${checkId}`;
}

/** A check's deadline. */
export interface DeadlineAt {
  checkId: string;
  /** The deadline; a moment in the past fires at once. */
  at: Date;
}

function jobOf({ checkId, at }: DeadlineAt, now: Date, replace: boolean): { name: string; data: DeadlinePayload; opts: JobsOptions } {
  const id = deadlineJobKey(checkId);
  return {
    name: 'deadline',
    data: { checkId },
    opts: {
      delay: Math.max(0, at.getTime() - now.getTime()),
      deduplication: replace ? { id, replace: true, keepLastIfActive: true } : { id },
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: true,
      removeOnFail: 1000,
    },
  };
}

/**
 * (Re)schedules the deadline jobs of many checks in one Redis round trip,
 * each replacing the check's pending job.
 *
 * @param now - Current time, to compute each delay in milliseconds.
 * @throws the Redis error when the queue cannot be reached.
 */
export async function scheduleDeadlines(queue: Queue<DeadlinePayload>, deadlines: readonly DeadlineAt[], now: Date = new Date()): Promise<void> {
  if (deadlines.length > 0) await queue.addBulk(deadlines.map((d) => jobOf(d, now, true)));
}

/**
 * (Re)schedules one check's deadline job to fire at `at`.
 *
 * @throws the Redis error when the queue cannot be reached.
 */
export async function scheduleDeadline(queue: Queue<DeadlinePayload>, checkId: string, at: Date, now: Date = new Date()): Promise<void> {
  await scheduleDeadlines(queue, [{ checkId, at }], now);
}

/**
 * Adds the deadline jobs of checks that have none, leaving every existing job
 * as it is (for the sweep: a job lost in Redis comes back; nothing else moves).
 *
 * @throws the Redis error when the queue cannot be reached.
 */
export async function ensureDeadlines(queue: Queue<DeadlinePayload>, deadlines: readonly DeadlineAt[], now: Date = new Date()): Promise<void> {
  if (deadlines.length > 0) await queue.addBulk(deadlines.map((d) => jobOf(d, now, false)));
}
