/**
 * Reads of what is scheduled in Redis for a check (shared/queues/deadlines.ts):
 * its deadline index entry and its timer job.
 */
import type { Job } from 'bullmq';
import { deadlineIndexKey, deadlineTimerKey, redisOf } from '../../shared/queues/deadlines.js';
import type { DeadlinePayload } from '../../shared/queues/payloads.js';
import { testContext } from './hooks.js';

/** The check's pending timer job, or undefined. */
export async function pendingTimer(checkId: string): Promise<Job<DeadlinePayload> | undefined> {
  const { deadlines } = testContext().queues;
  const id = await deadlines.getDeduplicationJobId(deadlineTimerKey(checkId));
  return id ? deadlines.getJob(id) : undefined;
}

/** How many checks the deadline index holds. */
export async function indexedDeadlines(): Promise<number> {
  const { deadlines } = testContext().queues;
  return redisOf(deadlines).zcard(deadlineIndexKey(deadlines));
}
