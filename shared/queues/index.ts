/**
 * The queues a process writes to, opened on one connection.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QueueName } from './names.js';
import type { DeadlinePayload, FlipPayload, NotifyPayload } from './payloads.js';

/** Producer handles of every queue. */
export interface Queues {
  deadlines: Queue<DeadlinePayload>;
  flips: Queue<FlipPayload>;
  notify: Queue<NotifyPayload>;
}

/**
 * Opens every queue on `connection`.
 *
 * @param connection - ioredis connection (see `createRedis`).
 */
export function openQueues(connection: Redis): Queues {
  return {
    deadlines: new Queue<DeadlinePayload>(QueueName.Deadlines, { connection }),
    flips: new Queue<FlipPayload>(QueueName.Flips, { connection }),
    notify: new Queue<NotifyPayload>(QueueName.Notify, { connection }),
  };
}

/** Closes every queue handle (not the connection). */
export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((q: Queue) => q.close()));
}
