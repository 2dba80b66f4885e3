/**
 * Consumer of the `notify` queue: delivers one flip through one channel
 * (behaviour.md §6 rule 5).
 *
 * Each attempt claims the flip's notification document first (see
 * shared/notify/notifications.ts), so a job whose notification is delivered
 * never sends again, and a job whose worker died mid-delivery is taken over
 * once its lease runs out. Network errors, timeouts, 429 and 5xx are retried
 * with exponential backoff; other refusals fail at once (UnrecoverableError).
 */
import { DelayedError, UnrecoverableError, Worker, type Job, type WorkerOptions } from 'bullmq';
import type { Clock } from '../shared/clock.js';
import { config as appConfig, type NotifyConfig } from '../shared/config.js';
import { logger } from '../shared/logger.js';
import { Channel, type ChannelDoc } from '../shared/models/channel.js';
import { Check, type CheckDoc } from '../shared/models/check.js';
import { Flip, type FlipDoc } from '../shared/models/flip.js';
import { deliver } from '../shared/notify/deliver.js';
import { alertOf } from '../shared/notify/message.js';
import {
  abandonNotification,
  claimNotification,
  ensureNotification,
  findNotification,
  recordDelivered,
  recordFailed,
} from '../shared/notify/notifications.js';
import { DeliveryError } from '../shared/notify/types.js';
import { QueueName } from '../shared/queues/names.js';
import type { NotifyPayload } from '../shared/queues/payloads.js';
import type { WorkerDeps } from './deps.js';

const log = logger.child({ module: 'notify-worker' });

/** What {@link processNotify} needs. */
export interface NotifyWorkerDeps {
  clock: Clock;
  config: NotifyConfig;
}

/** Why a notify job has nothing to send (no alerts for paused checks or disabled channels). */
function whyNotSend(flip: unknown, check: CheckDoc | null | undefined, channel: ChannelDoc | null): string {
  if (!flip) return 'flip was deleted';
  if (!check) return 'check was deleted';
  if (!channel) return 'channel was deleted';
  return channel.disabled ? 'channel is disabled' : 'check is paused';
}

/**
 * How long an attempt holds its claim, in milliseconds: twice the attempt
 * timeout, since the attempt gives up at the timeout and then records its outcome.
 */
export function leaseMsOf(config: Pick<NotifyConfig, 'attemptTimeoutMs'>): number {
  return 2 * config.attemptTimeoutMs;
}

/**
 * Processes one `notify` job.
 *
 * @param job - Carries the flip's and the channel's ids.
 * @param token - The job's lock token (to delay the job while another attempt holds the claim).
 * @returns `delivered`, or `skipped` when there is nothing (more) to send.
 * @throws UnrecoverableError for a refusal that will not change; DeliveryError to retry;
 *   DelayedError after moving the job to when another attempt's lease ends.
 */
export async function processNotify(job: Job<unknown>, token: string | undefined, deps: NotifyWorkerDeps): Promise<'delivered' | 'skipped'> {
  const { flipId, channelId } = notifyPayload(job);
  const [flip, channel] = await Promise.all([
    Flip.findById(flipId).lean<FlipDoc & { _id: unknown }>(),
    Channel.findById(channelId).lean<ChannelDoc>(),
  ]);
  const check = flip && (await Check.findById(flip.checkId).lean<CheckDoc>());
  if (!flip || !check || !channel || channel.disabled || check.status === 'paused') {
    await abandonNotification(flipId, channelId, whyNotSend(flip, check, channel), deps.clock());
    return 'skipped';
  }
  // The fan-out created it; the upsert is only for a job whose document was lost.
  const notification = (await findNotification(flipId, channelId)) ?? (await ensureNotification(flip, channelId, deps.clock()));
  const claim = await claimNotification(notification._id, leaseMsOf(deps.config), deps.clock());
  if (claim.kind === 'done') return 'skipped';
  if (claim.kind === 'busy') {
    await job.moveToDelayed(claim.until.getTime(), token);
    throw new DelayedError();
  }

  const started = deps.clock();
  try {
    await deliver(channel, alertOf(claim.notification._id, check, flip, deps.config.baseUrl), deps.config);
  } catch (err) {
    const error = err instanceof DeliveryError ? err : new DeliveryError(String(err), true);
    const final = !error.retryable || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    await recordFailed(claim.notification, claim.token, error, final, started, deps.clock());
    log.warn({ flipId, channelId, kind: channel.kind, err: error.message, final }, 'alert not delivered');
    if (!error.retryable) throw new UnrecoverableError(error.message);
    throw error;
  }
  if (!(await recordDelivered(claim.notification, claim.token, started, deps.clock()))) {
    log.warn({ flipId, channelId }, 'claim was taken over during a slow delivery; the alert may have gone twice');
  }
  return 'delivered';
}

/**
 * Reads a job's payload.
 *
 * @throws UnrecoverableError when it lacks the flip or channel id (retrying cannot help).
 */
export function notifyPayload(job: Pick<Job<unknown>, 'data'>): NotifyPayload {
  const data = job.data as Partial<NotifyPayload> | null;
  if (typeof data?.flipId !== 'string' || typeof data.channelId !== 'string' || !data.flipId || !data.channelId) {
    throw new UnrecoverableError('notify job without a flipId and channelId');
  }
  return { flipId: data.flipId, channelId: data.channelId };
}

/**
 * Starts the `notify` consumer, `notify.concurrency` jobs at a time.
 *
 * @param deps - Connection, clock, and `notify` settings (default `config.notify`).
 * @param options - BullMQ overrides (tests shorten `lockDuration` and `stalledInterval`, milliseconds).
 */
export function notifyWorker(deps: WorkerDeps, options: Partial<WorkerOptions> = {}): Worker<NotifyPayload, string> {
  const config = deps.notify ?? appConfig.notify;
  return new Worker<NotifyPayload, string>(QueueName.Notify, (job, token) => processNotify(job, token, { clock: deps.clock, config }), {
    connection: deps.connection,
    concurrency: config.concurrency,
    ...options,
  });
}
