/**
 * Scheduling of deadline jobs: exactly ONE pending delayed job per check,
 * due at its deadline. A newer schedule replaces the pending delayed job
 * (BullMQ deduplication, replace mode); one added while the job is active is
 * kept and created when it finishes, so a reschedule is never lost.
 */
import type { Queue } from 'bullmq';
import type { DeadlinePayload } from './payloads.js';

/** The deduplication id of a check's deadline job; never contains `:`. */
export function deadlineJobKey(checkId: string): string {
  return `deadline-${checkId}`;
}

/**
 * (Re)schedules the check's deadline job to fire at `at`.
 *
 * @param at - The deadline; a moment in the past fires at once.
 * @param now - Current time, to compute the delay in milliseconds.
 * @throws the Redis error when the queue cannot be reached.
 */
export async function scheduleDeadline(
  queue: Queue<DeadlinePayload>,
  checkId: string,
  at: Date,
  now: Date = new Date(),
): Promise<void> {
  const delayMs = Math.max(0, at.getTime() - now.getTime());
  await queue.add(
    'deadline',
    { checkId },
    {
      delay: delayMs,
      deduplication: { id: deadlineJobKey(checkId), replace: true, keepLastIfActive: true },
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: true,
      removeOnFail: 1000,
    },
  );
}
