/**
 * The notification state machine that makes delivery exactly-once per (flip, channel) (docs/alerts.md, "Retries and delivery guarantee"). Every transition is a conditional
 * update: an attempt claims a `pending` notification, or a `sending` one whose lease ran out, under a fresh token; only the token's holder records
 * the outcome; `delivered` and `failed` are final. The one open window, a worker dying after the provider accepted but before `delivered` is written,
 * makes that alert at-least-once (docs/alerts.md, "Retries and delivery guarantee").
 */
import { createHash, randomUUID } from 'node:crypto';
import type { mongo } from 'mongoose';
import { Channel } from '../models/channel.js';
import { Notification, type NotificationDoc } from '../models/notification.js';
import type { DeliveryError } from '../notify/types.js';

/** Error text of an attempt whose worker stopped before recording an outcome. */
export const INTERRUPTED = 'interrupted: the worker stopped during delivery';
/** What {@link claimNotification} found. */
export type Claim = ({ kind: 'claimed' } & HeldNotification) | { kind: 'done' } | { kind: 'busy'; until: Date };

/** Which notification: the one of a flip (its id) through a channel (its UUID); unique. */
export interface NotificationKey {
  flipId: string;
  channelId: string;
}

/**
 * The `_id` of the notification of a flip through a channel: a UUID derived from both (SHA-1, the layout of a version 5 UUID), so a notify job finds
 * its notification by `_id` without reading it first, and a repeated fan-out produces the same ids.
 */
export function notificationIdOf(flipId: string, channelId: string): string {
  const hex = createHash('sha1').update(`${flipId}/${channelId}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A notification an attempt holds: the document as claimed and the claim's token. */
export interface HeldNotification {
  notification: NotificationDoc;
  token: string;
}

/** The fields of a notification claimed by an attempt: `sending` under `token` until `now` + `leaseMs` (milliseconds). */
export function leaseOf(token: string, leaseMs: number, now: Date): Pick<NotificationDoc, 'state' | 'claimToken' | 'leaseUntil' | 'sendingSince' | 'updated'> {
  return { state: 'sending', claimToken: token, leaseUntil: new Date(now.getTime() + leaseMs), sendingSince: now, updated: now };
}

/**
 * Claims many notifications at once (the notify jobs running together): one update of every `pending` one among them, then one read of those this
 * call claimed; each other key goes through {@link claimNotification}. Returns each key's claim, in the order given.
 * @param leaseMs - How long each attempt may run before another worker may take over, milliseconds.
 * @throws the MongoDB error.
 */
export async function claimNotifications(keys: readonly NotificationKey[], leaseMs: number, now: Date): Promise<Claim[]> {
  const token = randomUUID();
  const ids = keys.map((k) => notificationIdOf(k.flipId, k.channelId));
  await Notification.updateMany({ _id: { $in: ids }, state: 'pending' }, { $set: leaseOf(token, leaseMs, now) });
  const claimed = await Notification.find({ _id: { $in: ids }, claimToken: token }).lean<NotificationDoc[]>();
  const byId = new Map(claimed.map((n) => [n._id, n]));
  return Promise.all(keys.map(async (key, i) => {
    const notification = byId.get(ids[i]);
    // A key given twice is claimed once: the repeat finds it `sending` (busy).
    byId.delete(ids[i]);
    return notification ? { kind: 'claimed' as const, notification, token } : claimNotification(key, leaseMs, now);
  }));
}

/**
 * Claims a notification for one delivery attempt starting at `now`: one round trip when it is `pending`, as it is after the fan-out.
 * @param leaseMs - How long the attempt may run before another worker may take over, milliseconds.
 * @returns `claimed` with the attempt's token; `done` when delivered or failed; `busy` while another attempt's lease runs.
 */
export async function claimNotification(key: NotificationKey, leaseMs: number, now: Date): Promise<Claim> {
  const token = randomUUID();
  const lease = leaseOf(token, leaseMs, now);
  const filter = { flipId: key.flipId, channelId: key.channelId };
  const fresh = await Notification.findOneAndUpdate({ ...filter, state: 'pending' }, { $set: lease }, { returnDocument: 'after' }).lean<NotificationDoc>();
  if (fresh) return { kind: 'claimed', notification: fresh, token };

  const current = await Notification.findOne(filter).lean<NotificationDoc>();
  if (!current || current.state === 'delivered' || current.state === 'failed') return { kind: 'done' };
  if (current.state === 'sending' && current.leaseUntil && current.leaseUntil > now) return { kind: 'busy', until: current.leaseUntil };

  // `pending` again (another attempt just released it) or `sending` with a lapsed lease (its worker stopped).
  const interrupted = current.state === 'sending';
  const taken = await Notification.findOneAndUpdate(
    { _id: current._id, state: current.state, claimToken: current.claimToken },
    interrupted
      ? {
          $set: { ...lease, error: INTERRUPTED },
          $inc: { attempts: 1 },
          $push: { attemptLog: { started: current.sendingSince ?? current.updated, finished: now, error: INTERRUPTED } },
        }
      : { $set: lease },
    { returnDocument: 'after' },
  ).lean<NotificationDoc>();
  if (taken) return { kind: 'claimed', notification: taken, token };
  // Another worker won the race for the same lapsed claim; it holds a fresh lease now.
  return { kind: 'busy', until: new Date(now.getTime() + leaseMs) };
}

/** A delivered attempt to record: the claimed notification, the claim's token, when sending began and ended. */
export interface Delivered {
  notification: NotificationDoc;
  token: string;
  started: Date;
  now: Date;
}

/**
 * Records delivered attempts with one bulk write of the notifications (each only if its attempt still holds the claim) and one of their channels (the
 * latest delivery). Sent to the driver as built: mongoose's casting cost more CPU than the requests.
 * @returns How many notifications were recorded (fewer: a claim was taken over).
 * @throws the MongoDB error.
 */
export async function recordDeliveredMany(items: readonly Delivered[]): Promise<number> {
  const latest = new Map<string, Delivered>();
  for (const item of items) {
    const seen = latest.get(item.notification.channelId);
    if (!seen || seen.now <= item.now) latest.set(item.notification.channelId, item);
  }
  const [recorded] = await Promise.all([
    (Notification.collection as unknown as mongo.Collection<NotificationDoc>).bulkWrite(items.map(({ notification, token, started, now }) => ({
      updateOne: {
        filter: { _id: notification._id, state: 'sending' as const, claimToken: token },
        update: {
          $set: { state: 'delivered' as const, delivered: now, error: '', claimToken: null, leaseUntil: null, sendingSince: null, updated: now },
          $inc: { attempts: 1 },
          $push: { attemptLog: { started, finished: now, error: '' } },
        },
      },
    })), { ordered: false }).then((res) => res.matchedCount),
    Channel.bulkWrite([...latest.values()].map(({ notification, started, now }) => ({
      updateOne: {
        filter: { _id: notification.channelId },
        update: { $set: { lastError: '', lastNotify: now, lastNotifyDurationMs: now.getTime() - started.getTime() } },
      },
    })), { ordered: false }),
  ]);
  return recorded;
}

/**
 * Records a failed attempt, if the attempt still holds the claim, on the notification and the channel; a permanent error also disables the channel
 * (docs/alerts.md, "Retries and delivery guarantee").
 * @param final - No attempt will follow: the notification becomes `failed` (else `pending` again).
 * @returns false when another worker took the claim over.
 */
export async function recordFailed(
  notification: NotificationDoc, token: string, error: DeliveryError, final: boolean, started: Date, now: Date,
): Promise<boolean> {
  const res = await Notification.updateOne(
    { _id: notification._id, state: 'sending', claimToken: token },
    {
      $set: { state: final ? 'failed' : 'pending', error: error.message, claimToken: null, leaseUntil: null, sendingSince: null, updated: now },
      $inc: { attempts: 1 },
      $push: { attemptLog: { started, finished: now, error: error.message } },
    },
  );
  await Channel.updateOne(
    { _id: notification.channelId },
    { $set: { lastError: error.message, lastNotify: now, ...(error.permanent ? { disabled: true } : {}) } },
  );
  return res.modifiedCount === 1;
}

/**
 * Marks a claimed notification that can no longer be sent (its check or channel was deleted, the channel disabled, the check paused) as failed, with
 * `reason` as its error text; the channel's own delivery record is not touched. Nothing happens when another attempt holds the claim.
 */
export async function abandonNotification(notification: NotificationDoc, token: string, reason: string, now: Date): Promise<void> {
  await Notification.updateOne(
    { _id: notification._id, state: 'sending', claimToken: token },
    { $set: { state: 'failed', error: reason, claimToken: null, leaseUntil: null, sendingSince: null, updated: now } },
  );
}
