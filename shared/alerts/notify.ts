/**
 * The alert path, step 2: the `notify` queue's consumer delivers one flip through one channel (docs/alerts.md, "Retries and delivery guarantee"). Each attempt first claims the
 * flip's notification document (shared/alerts/notifications.ts), so a job whose notification is delivered never sends again, and a job whose worker
 * died mid-delivery is taken over once its lease runs out. Network errors, timeouts, 429 and 5xx are retried with exponential backoff; other refusals
 * fail at once (UnrecoverableError).
 */
import { DelayedError, UnrecoverableError, Worker, type Job, type WorkerOptions } from 'bullmq';
import type { Clock } from '../clock.js';
import { config as appConfig, type NotifyConfig } from '../config.js';
import type { Delivered } from './notifications.js';
import { sendClaimed } from './attempt.js';
import { holdClaims, leaseMsOf } from './lease.js';
import { notifyBatchers, type NotifyBatchers } from './notify-batch.js';
import { DeliveryError } from '../notify/types.js';
import { workerOptions } from '../queues/index.js';
import { QueueName } from '../queues/names.js';
import type { NotifyPayload } from '../queues/payloads.js';
import type { WorkerDeps } from '../queues/deps.js';

/** What {@link processNotify} needs; with `batch` (notify-batch.ts), jobs running together share their round trips. */
export interface NotifyWorkerDeps {
  clock: Clock;
  config: NotifyConfig;
  batch: NotifyBatchers;
}

export { leaseMsOf } from './lease.js';

/**
 * Processes one `notify` job (the flip's, check's and channel's ids): claims its notification while reading its channel and check, then {@link
 * sendClaimed}, then records the delivery with the others recorded at the same time.
 * @param token - The job's lock token (to delay the job while another attempt holds the claim).
 * @returns `delivered`, or `skipped` when there is nothing (more) to send.
 * @throws UnrecoverableError for a refusal that will not change; DeliveryError to retry; DelayedError after moving the job to when another attempt's
 *   lease ends.
 */
export async function processNotify(job: Job<unknown>, token: string | undefined, deps: NotifyWorkerDeps): Promise<'delivered' | 'skipped'> {
  const payload = notifyPayload(job);
  const { claim, channel, check } = await deps.batch.prepare.load(payload);
  if (claim.kind === 'done') return 'skipped';
  if (claim.kind === 'busy') {
    await job.moveToDelayed(claim.until.getTime(), token);
    throw new DelayedError();
  }
  // Counted on the notification: the deadline worker's first attempt is one too.
  const isFinal = (error: DeliveryError) => !error.retryable || claim.notification.attempts + 1 >= (job.opts.attempts ?? 1);
  const release = holdClaims(claim.token, [claim.notification._id], leaseMsOf(deps.config));
  try {
    let sent: Delivered | null;
    try {
      sent = await sendClaimed({ notification: claim.notification, token: claim.token, check, channel }, isFinal, deps);
    } catch (err) {
      if (err instanceof DeliveryError && !err.retryable) throw new UnrecoverableError(err.message);
      throw err;
    }
    if (!sent) return 'skipped';
    await deps.batch.delivered.load(sent);
    return 'delivered';
  } finally {
    release();
  }
}

/** Reads a job's payload; throws UnrecoverableError when it lacks the flip, check or channel id (retrying cannot help). */
export function notifyPayload(job: Pick<Job<unknown>, 'data'>): NotifyPayload {
  const data = job.data as Partial<NotifyPayload> | null;
  const { flipId, checkId, channelId } = data ?? {};
  if (typeof flipId !== 'string' || typeof checkId !== 'string' || typeof channelId !== 'string' || !flipId || !checkId || !channelId) {
    throw new UnrecoverableError('notify job without a flipId, checkId and channelId');
  }
  return { flipId, checkId, channelId };
}

/**
 * Starts the `notify` consumer, `notify.concurrency` jobs at a time.
 * @param deps - Connection, clock, and `notify` settings (default `config.notify`).
 * @param options - BullMQ overrides (tests shorten `lockDuration` and `stalledInterval`, milliseconds).
 */
export function notifyWorker(deps: WorkerDeps, options: Partial<WorkerOptions> = {}): Worker<NotifyPayload, string> {
  const config = deps.notify ?? appConfig.notify;
  const batch = notifyBatchers(deps.clock, leaseMsOf(config));
  const run = (job: Job<unknown>, token: string | undefined) => processNotify(job, token, { clock: deps.clock, config, batch });
  return new Worker<NotifyPayload, string>(QueueName.Notify, run, { ...workerOptions(deps.connection), concurrency: config.concurrency, ...options });
}
