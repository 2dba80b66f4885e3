/**
 * Consumer of the `flips` queue (behaviour.md §6 rule 3): claims an
 * unprocessed flip and fans it out to ONE `notify` job per selected channel.
 *
 * Idempotent: a retry of a crashed attempt finds the flip already claimed and
 * does the fan-out again; the notification documents (unique per flip and
 * channel) and the notify jobs' deterministic ids keep it from alerting twice.
 */
import { UnrecoverableError, Worker, type Job, type JobsOptions, type Queue, type WorkerOptions } from 'bullmq';
import type { Clock } from '../shared/clock.js';
import { config as appConfig, type NotifyConfig } from '../shared/config.js';
import { notifiesOn } from '../shared/domain/status.js';
import { logger } from '../shared/logger.js';
import { Check, type CheckDoc } from '../shared/models/check.js';
import { Flip, type FlipDoc } from '../shared/models/flip.js';
import { Notification, type NotificationDoc } from '../shared/models/notification.js';
import { ensureNotification } from '../shared/notify/notifications.js';
import { selectChannels } from '../shared/notify/select.js';
import { QueueName } from '../shared/queues/names.js';
import type { FlipPayload, NotifyPayload } from '../shared/queues/payloads.js';
import type { WorkerDeps } from './deps.js';

const log = logger.child({ module: 'flips-worker' });

/** What {@link processFlip} needs. */
export interface FlipWorkerDeps {
  clock: Clock;
  /** Where the fan-out goes. */
  notifyQueue: Queue<NotifyPayload>;
  /** Retry policy of the notify jobs (`attempts`, `backoffMs` in milliseconds). */
  config: Pick<NotifyConfig, 'attempts' | 'backoffMs'>;
}

/** The job id of a flip's delivery through a channel; never contains `:` (the ids are hex and UUIDs). */
export function notifyJobId(flipId: string, channelId: string): string {
  return `notify-${flipId}-${channelId}`;
}

/** Options of a notify job: deterministic id, retries with exponential backoff. */
export function notifyJobOptions(config: FlipWorkerDeps['config'], flipId: string, channelId: string): JobsOptions {
  return {
    jobId: notifyJobId(flipId, channelId),
    attempts: config.attempts,
    backoff: { type: 'exponential', delay: config.backoffMs },
    removeOnComplete: true,
    removeOnFail: 1000,
  };
}

/**
 * Processes one `flips` job.
 *
 * No alerts for a flip that never notifies (new→up, paused→up, into paused),
 * for a deleted check, or for a check that is paused by the time the flip is
 * processed (the alerts issue: no alerts for paused checks).
 *
 * @param job - Carries the flip's id.
 * @returns How many notify jobs were enqueued.
 * @throws the MongoDB or Redis error; the job is retried.
 */
export async function processFlip(job: Pick<Job<unknown>, 'data'>, deps: FlipWorkerDeps): Promise<number> {
  const { flipId } = flipPayload(job);
  const now = deps.clock();
  const flip = await Flip.findById(flipId).lean<FlipDoc & { _id: unknown }>();
  if (!flip) {
    log.warn({ flipId }, 'flip not found; nothing to notify');
    return 0;
  }
  // processed: null → now. If a crashed attempt claimed it already, go on: the fan-out is idempotent.
  await Flip.updateOne({ _id: flipId, processed: null }, { $set: { processed: now } });
  if (!notifiesOn(flip)) return 0;

  const check = await Check.findById(flip.checkId).lean<CheckDoc>();
  if (!check || check.status === 'paused') {
    log.info({ flipId, checkId: flip.checkId, paused: Boolean(check) }, 'no alerts: check deleted or paused');
    return 0;
  }
  const status = flip.newStatus === 'up' ? 'up' : 'down';
  const channels = await selectChannels(check, status);
  for (const channel of channels) await ensureNotification(flip, channel._id, now);
  if (channels.length > 0) {
    await deps.notifyQueue.addBulk(
      channels.map((channel) => ({
        name: 'notify',
        data: { flipId, channelId: channel._id },
        opts: notifyJobOptions(deps.config, flipId, channel._id),
      })),
    );
  }
  log.info({ flipId, checkId: check._id, status, channels: channels.length }, 'flip fanned out');
  return channels.length;
}

/**
 * Reads a job's payload.
 *
 * @throws UnrecoverableError when it has no flip id (retrying cannot help).
 */
export function flipPayload(job: Pick<Job<unknown>, 'data'>): FlipPayload {
  const data = job.data as Partial<FlipPayload> | null;
  if (typeof data?.flipId !== 'string' || data.flipId === '') throw new UnrecoverableError('flips job without a flipId');
  return { flipId: data.flipId };
}

/**
 * Starts the `flips` consumer.
 *
 * @param deps - Connection, queues (`notify` receives the fan-out), clock, and `notify` settings (default `config.notify`).
 * @param options - BullMQ overrides (tests shorten `lockDuration` and `stalledInterval`, milliseconds).
 */
export function flipWorker(deps: WorkerDeps, options: Partial<WorkerOptions> = {}): Worker<FlipPayload, number> {
  const flipDeps = { clock: deps.clock, notifyQueue: deps.queues.notify, config: deps.notify ?? appConfig.notify };
  return new Worker<FlipPayload, number>(QueueName.Flips, (job) => processFlip(job, flipDeps), {
    connection: deps.connection,
    // Fan-out is I/O-bound; many checks going down at once must not queue behind each other.
    concurrency: flipDeps.config.concurrency,
    ...options,
  });
}

/** Notifications re-enqueued per sweep at most. */
const REQUEUE_BATCH = 1000;

/**
 * Puts back on the `notify` queue the notifications whose job was lost (a
 * Redis flush after the fan-out): still `pending`, untouched for `staleMs`,
 * or `sending` with a lease that ran out `staleMs` ago. BullMQ ignores the add
 * while the job still exists (for example waiting out its backoff); a job
 * kept as failed although its notification got no outcome is retried.
 *
 * @param deps - Queues, clock and `notify` settings (default `config.notify`).
 * @param staleMs - Milliseconds without progress before a notification counts as lost.
 * @returns How many notify jobs were added (or found already queued).
 */
export async function requeueStaleNotifications(deps: Pick<WorkerDeps, 'queues' | 'clock' | 'notify'>, staleMs: number): Promise<number> {
  const staleBefore = new Date(deps.clock().getTime() - staleMs);
  const stale = await Notification.find(
    { $or: [{ state: 'pending', updated: { $lte: staleBefore } }, { state: 'sending', leaseUntil: { $lte: staleBefore } }] },
    { flipId: 1, channelId: 1 },
  )
    .limit(REQUEUE_BATCH)
    .lean<Pick<NotificationDoc, 'flipId' | 'channelId'>[]>();
  const config = deps.notify ?? appConfig.notify;
  await deps.queues.notify.addBulk(
    stale.map(({ flipId, channelId }) => ({ name: 'notify', data: { flipId, channelId }, opts: notifyJobOptions(config, flipId, channelId) })),
  );
  // A job that failed without recording an outcome (it stalled too often, or
  // MongoDB kept failing) is kept under the id, so the add above did nothing;
  // it starts over with all its attempts.
  await Promise.all(
    stale.map(async ({ flipId, channelId }) => {
      const job = await deps.queues.notify.getJob(notifyJobId(flipId, channelId));
      if (job && (await job.isFailed())) await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    }),
  );
  return stale.length;
}
