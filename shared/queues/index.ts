/**
 * The queues a process writes to, opened on one connection, and the options
 * every BullMQ queue and worker of the service shares.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { config } from '../config.js';
import { QueueName } from './names.js';
import type { DeadlinePayload, NotifyPayload } from './payloads.js';

/** Producer handles of every queue. */
export interface Queues {
  deadlines: Queue<DeadlinePayload>;
  notify: Queue<NotifyPayload>;
}

/**
 * Connection and key prefix (QUEUE_PREFIX) of a BullMQ queue or worker: every
 * key lives under the deployment's prefix, so two deployments (or a test run)
 * sharing one Redis never see each other's jobs.
 *
 * @param connection - ioredis connection (see `createRedis`).
 * @param prefix - Key prefix; QUEUE_PREFIX unless a tool runs under its own (the bench).
 */
export function bullOptions(connection: Redis, prefix: string = config.queuePrefix): { connection: Redis; prefix: string } {
  return { connection, prefix };
}

/**
 * {@link bullOptions} plus how long a worker's job lock lasts and how often
 * stalled jobs are looked for (both JOB_LOCK_MS milliseconds): a job whose
 * worker was killed is handed to another worker within about twice that.
 *
 * @param connection - Worker-role ioredis connection.
 */
export function workerOptions(connection: Redis): { connection: Redis; prefix: string; lockDuration: number; stalledInterval: number } {
  return { ...bullOptions(connection), lockDuration: config.jobLockMs, stalledInterval: config.jobLockMs };
}

/**
 * Opens every queue on `connection`.
 *
 * @param connection - ioredis connection (see `createRedis`).
 * @param prefix - Key prefix; QUEUE_PREFIX by default.
 */
export function openQueues(connection: Redis, prefix?: string): Queues {
  return {
    deadlines: new Queue<DeadlinePayload>(QueueName.Deadlines, bullOptions(connection, prefix)),
    notify: new Queue<NotifyPayload>(QueueName.Notify, bullOptions(connection, prefix)),
  };
}

/** Closes every queue handle (not the connection). */
export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((q: Queue) => q.close()));
}
