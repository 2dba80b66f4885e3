/**
 * The alert path's fast lane: the deadline worker sends the notifications it just inserted, claimed, itself (one read of their channels and checks,
 * one bulk record), instead of a notify job each. Their notify jobs wait until the claim's lease ends: they find the alert delivered and skip, or
 * retry it.
 *
 * Crash point: killed mid-send, the lease runs out and the notify job takes the alert over (shared/alerts/notify.ts).
 */
import type { Queue } from 'bullmq';
import type { Clock } from '../clock.js';
import type { NotifyConfig } from '../config.js';
import type { NotificationDoc } from '../models/notification.js';
import { DeliveryError } from '../notify/types.js';
import { notifyJobId } from '../queues/notify.js';
import type { NotifyPayload } from '../queues/payloads.js';
import { sendClaimed } from './attempt.js';
import { readAlertTargets } from './notify-batch.js';
import { recordDeliveredMany, type Delivered } from './notifications.js';
import { holdClaims, leaseMsOf } from './lease.js';
import { logger } from '../logger.js';

const log = logger.child({ module: 'first-attempt' });

/** First attempts in flight at once: they are sent in one burst, the alerts of a mass down. */
const FIRST_ATTEMPT_CONCURRENCY = 200;
/** Deliveries recorded per write while the burst goes on: a worker killed mid-burst repeats at most these and the sends in flight. */
const RECORD_EVERY = 50;

/** What the first attempts need: the notify queue (to hasten a retry), clock and settings. */
export interface FirstAttemptDeps {
  notifyQueue: Queue<NotifyPayload>;
  clock: Clock;
  config: NotifyConfig;
}

/**
 * Sends each notification once, {@link FIRST_ATTEMPT_CONCURRENCY} at a time, recording deliveries every {@link RECORD_EVERY}; a retryable failure
 * moves its notify job to `config.backoffMs` from now.
 *
 * @param claimed - Notifications claimed under `token` (shared/alerts/outbox.ts `fanOut`).
 * @throws the MongoDB error of the reads or the record (the notify jobs then take over).
 */
export async function sendFirstAttempts(deps: FirstAttemptDeps, claimed: readonly NotificationDoc[], token: string): Promise<void> {
  if (claimed.length === 0) return;
  const targetOf = await readAlertTargets(claimed);
  const isFinal = (error: DeliveryError) => !error.retryable || deps.config.attempts <= 1;
  const delivered: Delivered[] = [];
  const records: Promise<void>[] = [];
  let recordError: Error | undefined;
  const record = (items: Delivered[]): void => {
    records.push(recordDeliveredMany(items).then(() => undefined, (err: unknown) => void (recordError ??= err instanceof Error ? err : new Error(String(err)))));
  };
  const queue = [...claimed];
  const sendNext = async (): Promise<void> => {
    for (let notification = queue.shift(); notification; notification = queue.shift()) {
      const alert = { notification, token, ...targetOf(notification) };
      try {
        const sent = await sendClaimed(alert, isFinal, deps);
        if (sent && delivered.push(sent) >= RECORD_EVERY) record(delivered.splice(0));
      } catch (err) {
        if (err instanceof DeliveryError && err.retryable && !isFinal(err)) await hastenRetry(deps, notification);
        else if (!(err instanceof DeliveryError)) log.error({ err, flipId: notification.flipId }, 'first attempt failed; the notify job retries');
      }
    }
  };
  const release = holdClaims(token, claimed.map((n) => n._id), leaseMsOf(deps.config));
  try {
    await Promise.all(Array.from({ length: Math.min(FIRST_ATTEMPT_CONCURRENCY, claimed.length) }, sendNext));
    if (delivered.length > 0) record(delivered);
    await Promise.all(records);
    if (recordError !== undefined) throw recordError;
  } finally {
    release();
  }
}

/**
 * Moves a notification's waiting notify job to `backoffMs` from now (its first retry); nothing when the job is gone or running. A Redis error only
 * leaves the retry at the lease's end: it must not stop the other sends' record.
 */
async function hastenRetry(deps: FirstAttemptDeps, notification: NotificationDoc): Promise<void> {
  try {
    const job = await deps.notifyQueue.getJob(notifyJobId(notification.flipId, notification.channelId));
    if (job && (await job.isDelayed())) await job.changeDelay(deps.config.backoffMs);
  } catch (err) {
    log.warn({ err, flipId: notification.flipId }, 'cannot hasten the retry; it comes when the claim lapses');
  }
}
