/**
 * Reads of what is scheduled in Redis for a check (shared/deadlines/schedule.ts):
 * its one delayed deadline job.
 */
import type { Job } from 'bullmq';
import { deadlineJobKey } from '../../shared/deadlines/schedule.js';
import type { DeadlinePayload } from '../../shared/queues/payloads.js';
import { testContext } from './hooks.js';

/** The check's pending deadline job, or undefined. */
export async function pendingTimer(checkId: string): Promise<Job<DeadlinePayload> | undefined> {
  const { deadlines } = testContext().queues;
  const id = await deadlines.getDeduplicationJobId(deadlineJobKey(checkId));
  return id ? deadlines.getJob(id) : undefined;
}

/** The moment the check's pending deadline job is due, or null without one. */
export async function pendingDeadline(checkId: string): Promise<Date | null> {
  const job = await pendingTimer(checkId);
  return job ? new Date(job.timestamp + job.delay) : null;
}
