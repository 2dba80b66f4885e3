/**
 * The first delivery attempt of the deadline worker's alerts, made at once in
 * the worker that stored the flips instead of through one notify job each
 * (shared/services/outbox.ts, `sendNow`). The notifications arrive already
 * claimed by their insert, so the provider request follows the flip insert
 * with no queue hop and no claim round trip; a thousand checks going down
 * together cost no BullMQ job at all while their providers accept.
 *
 * Everything after the first attempt is the notify queue's: a retryable
 * failure gets a notify job delayed by the backoff, with the attempts left;
 * an alert whose claim could run out before its attempt is recorded (it
 * waited too long for a free slot), or still waiting when the process stops,
 * is released to a notify job unsent. If the process dies, the claims run out
 * and notify jobs or the sweep take the alerts over (workers/requeue.ts).
 *
 * Provider requests share the process's `notify.concurrency` slots with the
 * notify jobs ({@link AlertNow.slots}). The check and channel are those the
 * deadline pass read, so an alert is not re-read before its attempt; a
 * channel a permanent refusal disabled meanwhile is skipped.
 */
import type { JobsOptions } from 'bullmq';
import pLimit, { type LimitFunction } from 'p-limit';
import { config as appConfig, type NotifyConfig } from '../shared/config.js';
import { logger } from '../shared/logger.js';
import { releaseNotification, type Delivered } from '../shared/notify/notifications.js';
import { DeliveryError } from '../shared/notify/types.js';
import { notifyJobOptions } from '../shared/queues/notify.js';
import { recordSent, sendClaimed, type ClaimedAlert } from './alert-attempt.js';
import { notifyBatchers } from './notify-batch.js';
import { leaseMsOf } from './notify.js';
import type { WorkerDeps } from './deps.js';

const log = logger.child({ module: 'alert-now' });

/** An attempt starts only with at least this many attempt timeouts left on its claim (the lease is two). */
const LEASE_MARGIN = 1.5;

/** Sends alerts at once, `notify.concurrency` provider requests at a time (recording a delivery does not hold a slot). */
export interface AlertNow {
  /** How long the notifications handed to {@link AlertNow.send} are claimed for, milliseconds (see {@link leaseMsOf}). */
  readonly leaseMs: number;
  /** The process's provider request slots, `notify.concurrency` of them; the notify worker's attempts take them too. */
  readonly slots: LimitFunction;
  /** Starts sending; returns at once. Failures are recorded on the notifications and handed to notify jobs, never thrown. */
  send(alerts: readonly ClaimedAlert[]): void;
  /**
   * Runs `task` in the background once every alert handed over so far is sent or
   * handed to a notify job; {@link AlertNow.idle} waits for it too. A failure is
   * logged: `task` must be something the sweep also does.
   */
  whenSent(task: () => Promise<void>): void;
  /** Resolves once every alert handed over so far is sent or handed to a notify job, and every task after them is done (for a graceful stop). */
  idle(): Promise<void>;
  /** From now on, an alert not yet being sent is released to a notify job instead (a stopping process leaves it to another worker). */
  stop(): void;
}

/**
 * Options of the notify job that takes over after the first attempt: the
 * attempts left, the first of them after `backoffMs` (milliseconds) and each
 * further one after twice the previous delay, as if the job had made the first attempt.
 */
function retryJobOptions(config: NotifyConfig, alert: ClaimedAlert): JobsOptions {
  const { flipId, channelId } = alert.notification;
  return {
    ...notifyJobOptions(config, flipId, channelId),
    attempts: config.attempts - 1,
    delay: config.backoffMs,
    backoff: { type: 'exponential', delay: 2 * config.backoffMs },
  };
}

/**
 * The immediate sender of a worker process.
 *
 * @param deps - Queues (for the notify jobs that take over), clock, and `notify` settings (default `config.notify`).
 */
export function alertNow(deps: Pick<WorkerDeps, 'queues' | 'clock' | 'notify'>): AlertNow {
  const config = deps.notify ?? appConfig.notify;
  const leaseMs = leaseMsOf(config);
  const slots = pLimit(config.concurrency);
  /** Channels a permanent refusal disabled during this process's attempts. */
  const disabled = new Set<string>();
  let stopping = false;
  const attemptDeps = { clock: deps.clock, config, batch: notifyBatchers(deps.clock, leaseMs) };
  const running = new Set<Promise<void>>();

  const toJob = (alert: ClaimedAlert, opts: JobsOptions) => {
    const { flipId, checkId, channelId } = alert.notification;
    return deps.queues.notify.add('notify', { flipId, checkId, channelId }, opts);
  };

  const isFinal = (error: DeliveryError) => !error.retryable || config.attempts <= 1;
  /** The attempt, in a slot: null when released to a notify job or failed. */
  const attempt = async (alert: ClaimedAlert): Promise<Delivered | null> => {
    const { notification, token, channel } = alert;
    // Half a timeout of margin beyond the attempt's own, for recording its outcome.
    if (stopping || deps.clock().getTime() + LEASE_MARGIN * config.attemptTimeoutMs > notification.leaseUntil!.getTime()) {
      if (await releaseNotification(notification, token, deps.clock())) await toJob(alert, notifyJobOptions(config, notification.flipId, notification.channelId));
      return null;
    }
    const current = channel && disabled.has(channel._id) ? { ...alert, channel: { ...channel, disabled: true } } : alert;
    try {
      return await sendClaimed(current, isFinal, attemptDeps);
    } catch (err) {
      if (!(err instanceof DeliveryError)) throw err;
      if (err.permanent && channel) disabled.add(channel._id);
      if (!isFinal(err)) await toJob(alert, retryJobOptions(config, alert));
      return null;
    }
  };
  const sendOne = async (alert: ClaimedAlert): Promise<void> => {
    const sent = await slots(() => attempt(alert));
    if (sent) await recordSent(sent, attemptDeps);
  };

  const track = (work: Promise<void>): void => {
    const tracked: Promise<void> = work.finally(() => running.delete(tracked));
    running.add(tracked);
  };

  return {
    leaseMs,
    slots,
    send(alerts) {
      for (const alert of alerts) {
        // On failure the claim runs out and the sweep puts the alert on the notify queue.
        track(sendOne(alert).catch((err: unknown) => log.error({ err, notificationId: alert.notification._id }, 'alert not handed over; the sweep will retry it')));
      }
    },
    whenSent(task) {
      track(Promise.all(running).then(task).catch((err: unknown) => log.error({ err }, 'task after alerts failed; the sweep does it')));
    },
    async idle() {
      while (running.size > 0) await Promise.all(running);
    },
    stop() {
      stopping = true;
    },
  };
}
