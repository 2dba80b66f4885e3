/** The queues a process writes to, opened on one connection, and the options every BullMQ queue and worker of the service shares. */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { config } from '../config.js';
import { QueueName } from './names.js';
import type { DeadlinePayload, NotifyPayload } from './payloads.js';

/** Producer handles of every queue. */
export interface Queues {
  deadlines: Queue<DeadlinePayload>;
  notify: Queue<NotifyPayload>;
  /** The connection they were opened on, for the service's own keys (shared/status-pages/changes.ts). */
  redis: Redis;
}

/** The BullMQ queues of `queues`, for what handles each one (closing, outage reports, the dashboard). */
export function queueList(queues: Queues): Queue[] {
  return [queues.deadlines, queues.notify];
}

/** Connection and key prefix (QUEUE_PREFIX unless a tool runs under its own) of a BullMQ queue or worker. */
export function bullOptions(connection: Redis, prefix: string = config.queuePrefix): { connection: Redis; prefix: string } {
  return { connection, prefix };
}

/**
 * {@link bullOptions} plus the job lock (JOB_LOCK_MS milliseconds, renewed by BullMQ every half) and the stalled-job check (every half of it): a job of
 * a killed worker runs again within 1.5 × JOB_LOCK_MS.
 */
export function workerOptions(connection: Redis): { connection: Redis; prefix: string; lockDuration: number; stalledInterval: number } {
  return { ...bullOptions(connection), lockDuration: config.jobLockMs, stalledInterval: Math.floor(config.jobLockMs / 2) };
}

/** Opens every queue on `connection`, under `prefix` (QUEUE_PREFIX by default). */
export function openQueues(connection: Redis, prefix?: string): Queues {
  return {
    deadlines: new Queue<DeadlinePayload>(QueueName.Deadlines, bullOptions(connection, prefix)),
    notify: new Queue<NotifyPayload>(QueueName.Notify, bullOptions(connection, prefix)),
    redis: connection,
  };
}

/** Closes every queue handle (not the connection). */
export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(queueList(queues).map((q) => q.close()));
}
