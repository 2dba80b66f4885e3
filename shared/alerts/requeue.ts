/** The sweep's repair of alerts whose notify job Redis lost (a flush after the fan-out, a failed add): the notification in MongoDB is the truth. */
import { config as appConfig } from '../config.js';
import { Notification, type NotificationDoc } from '../models/notification.js';
import { notifyJobId, notifyJobOptions } from '../queues/notify.js';
import type { WorkerDeps } from '../queues/deps.js';

/** Notifications re-enqueued per sweep at most. */
const REQUEUE_BATCH = 1000;

/**
 * Puts back on the `notify` queue the notifications whose job was lost: still `pending` and untouched for `staleMs` (milliseconds), or `sending` with
 * a lease that ran out `staleMs` ago (indexed). BullMQ ignores the add while the job exists; a job kept as failed although its notification got no
 * outcome is retried.
 * @param deps - Queues, clock and `notify` settings (default `config.notify`).
 * @returns How many notify jobs were added (or found already queued).
 */
export async function requeueStaleNotifications(deps: Pick<WorkerDeps, 'queues' | 'clock' | 'notify'>, staleMs: number): Promise<number> {
  const staleBefore = new Date(deps.clock().getTime() - staleMs);
  const projection = { flipId: 1, checkId: 1, channelId: 1 };
  type Stale = Pick<NotificationDoc, 'flipId' | 'checkId' | 'channelId'>;
  const [pending, sending] = await Promise.all([
    Notification.find({ state: 'pending', updated: { $lte: staleBefore } }, projection).limit(REQUEUE_BATCH).lean<Stale[]>(),
    Notification.find({ state: 'sending', leaseUntil: { $lte: staleBefore } }, projection).limit(REQUEUE_BATCH).lean<Stale[]>(),
  ]);
  const stale = [...pending, ...sending];
  const config = deps.notify ?? appConfig.notify;
  await deps.queues.notify.addBulk(
    stale.map(({ flipId, checkId, channelId }) => ({ name: 'notify', data: { flipId, checkId, channelId }, opts: notifyJobOptions(config, flipId, channelId) })),
  );
  // A job that failed without recording an outcome (it stalled too often, or MongoDB kept failing) is kept under the id, so the add above did
  // nothing; it starts over with all its attempts.
  await Promise.all(
    stale.map(async ({ flipId, channelId }) => {
      const job = await deps.queues.notify.getJob(notifyJobId(flipId, channelId));
      if (job && (await job.isFailed())) await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    }),
  );
  return stale.length;
}
