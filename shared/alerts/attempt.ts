/**
 * One delivery attempt of a claimed notification (docs/alerts.md, "Retries and delivery guarantee"): skip what can no longer be sent, call the provider, record the outcome if
 * the attempt still holds the claim.
 */
import type { Clock } from '../clock.js';
import type { NotifyConfig } from '../config.js';
import { crashPoint } from '../crash.js';
import { logger } from '../logger.js';
import { observeAlertSeconds } from '../metrics.js';
import type { ChannelDoc } from '../models/channel.js';
import type { CheckDoc } from '../models/check.js';
import { deliver } from '../notify/deliver.js';
import { alertOf } from '../notify/message.js';
import { abandonNotification, recordFailed, type Delivered, type HeldNotification } from './notifications.js';
import { DeliveryError } from '../notify/types.js';
import { emailAddressesOf } from '../services/email-channels.js';

const log = logger.child({ module: 'alert-attempt' });
const MS_PER_SECOND = 1000;

/** A claimed notification with the check it alerts about (null when deleted) and its channel (null when deleted). */
export interface ClaimedAlert extends HeldNotification {
  check: Pick<CheckDoc, '_id' | 'projectId' | 'name' | 'tags' | 'desc' | 'lastPing' | 'status'> | null;
  channel: ChannelDoc | null;
}

/** What an attempt needs: clock and alert settings. */
export interface AttemptDeps {
  clock: Clock;
  config: NotifyConfig;
}

/** Why a claimed alert is not sent (no alerts for paused checks, disabled channels, unconfirmed addresses); null when it is. */
function whyNotSend(check: ClaimedAlert['check'], channel: ChannelDoc | null): string | null {
  if (!check) return 'check was deleted';
  if (!channel) return 'channel was deleted';
  if (channel.disabled) return 'channel is disabled';
  const unconfirmed = channel.unconfirmed ?? [];
  if (unconfirmed.length > 0 && emailAddressesOf(channel.kind, channel.value).every((address) => unconfirmed.includes(address))) {
    return 'email address not confirmed by its owner yet';
  }
  return check.status === 'paused' ? 'check is paused' : null;
}

/**
 * Sends a claimed alert once: a notification that can no longer be sent is abandoned (`failed` with the reason); a failed attempt is recorded, the
 * notification `pending` again or, when `isFinal` says no attempt follows, `failed` (a permanent refusal also disables the channel). A delivered one
 * is left for the caller to record (in bulk, with others), so it can free its slot first.
 * @returns The delivery to record, or null when there was nothing to send.
 * @throws DeliveryError when the provider did not accept (after recording it); the MongoDB error when the outcome cannot be recorded (the claim's
 *   lease then runs out and the sweep puts the alert back).
 */
export async function sendClaimed(claimed: ClaimedAlert, isFinal: (error: DeliveryError) => boolean, deps: AttemptDeps): Promise<Delivered | null> {
  const { notification, token, check, channel } = claimed;
  const why = whyNotSend(check, channel);
  if (why !== null || !check || !channel) {
    await abandonNotification(notification, token, why ?? '', deps.clock());
    return null;
  }
  crashPoint('notify-claimed');
  const started = deps.clock();
  const flip = { newStatus: notification.status, reason: notification.reason, created: notification.flipCreated, event: notification.event, n: notification.n };
  try {
    await deliver(channel, alertOf(notification._id, check, flip, deps.config.baseUrl), deps.config);
  } catch (err) {
    const error = err instanceof DeliveryError ? err : new DeliveryError(String(err), true);
    const final = isFinal(error);
    await recordFailed(notification, token, error, final, started, deps.clock());
    log.warn({ flipId: notification.flipId, channelId: channel._id, kind: channel.kind, err: error.message, final }, 'alert not delivered');
    throw error;
  }
  const now = deps.clock();
  observeAlertSeconds((now.getTime() - notification.flipCreated.getTime()) / MS_PER_SECOND);
  return { notification, token, started, now };
}
