/**
 * The alert path, step 1: completing the flips a check owes. The store wrote each status change with its flip in the check's outbox; completing an
 * entry
 *
 * 1. inserts the notifications of the check's alerting channels (one per flip and channel, unique: a repeat inserts nothing), claimed for the
 *    caller's own first attempt when it makes one (the deadline worker does);
 * 2. inserts the flip and adds one notify job per notification (fixed ids), due when that claim's lease ends, else at once;
 * 3. pulls the entry from the check.
 *
 * Crash points: after any step the entry stays in the outbox, and whoever completes it next (a retried deadline job, or the sweep once it is 10 s
 * old) repeats the steps; each is idempotent, so every flip and notification is written exactly once (behaviour.md §6 rules 3–4). Delivery is
 * shared/alerts/notify.ts.
 */
import type { Types } from 'mongoose';
import { insertNew } from '../db.js';
import { Channel, type ChannelDoc } from '../models/channel.js';
import type { CheckDoc, OutboxFlip } from '../models/check.js';
import { Flip, type FlipDoc } from '../models/flip.js';
import { Notification, type NotificationDoc } from '../models/notification.js';
import { notifiesOn } from '../domain/status.js';
import { channelSendsOn } from '../notify/kinds.js';
import { leaseOf, notificationIdOf } from './notifications.js';
import { notifyJobOptions } from '../queues/notify.js';
import type { Queues } from '../queues/index.js';
import type { NotifyConfig } from '../config.js';
import { pullOwed } from '../checks/store.js';
import { crashPoint } from '../crash.js';

/** The check fields completing an entry reads. */
export type OwingCheck = Pick<CheckDoc, '_id' | 'projectId' | 'channels' | 'status'>;

/** One owed flip and its check as stored after the change. */
export interface OwedFlip {
  check: OwingCheck;
  entry: OutboxFlip;
}

/** What completing needs: the notify queue and its retry settings (`backoffMs` in milliseconds). */
export interface OutboxDeps {
  queues: Pick<Queues, 'notify'>;
  notify: Pick<NotifyConfig, 'attempts' | 'backoffMs'>;
}

/** A claim of the new notifications for an attempt the caller makes at once (`leaseMs` in milliseconds). */
export interface FirstAttempt {
  token: string;
  leaseMs: number;
}

/**
 * The check's channels that alert on a flip into `status` (behaviour.md §6 rule 4): assigned, in the check's project, not disabled, not set to skip
 * this direction.
 */
export function alertingChannels(check: OwingCheck, status: 'up' | 'down', channels: Map<string, ChannelDoc>): ChannelDoc[] {
  return check.channels
    .map((id) => channels.get(id))
    .filter((c): c is ChannelDoc => c !== undefined && c.projectId === check.projectId && !c.disabled)
    .filter((c) => channelSendsOn(c.kind, c.value, status));
}

/**
 * Completes owed flips (steps 1–3 above): {@link fanOut}, then pulls the entries.
 *
 * @returns How many notifications this call inserted (a repeat inserts none).
 * @throws the MongoDB or Redis error; the entries stay in the outbox for a retry or the sweep.
 */
export async function completeOwed(deps: OutboxDeps, owed: readonly OwedFlip[], now: Date): Promise<number> {
  const inserted = await fanOut(deps, owed, now);
  await pullOwed(owed.map(({ check, entry }) => ({ checkId: check._id, entry })));
  return inserted.length;
}

/**
 * Steps 1–2 above for a whole batch, with one read of the channels, one insert of notifications, one of flips and one add of jobs. A check paused by
 * the time its flip completes gets no alerts (behaviour.md §6). The caller pulls the entries after it (`pullOwed`).
 *
 * @param now - When the flips are processed and the notifications created.
 * @param first - Claims the new notifications for the caller's attempt; their jobs then wait for the lease to end.
 * @returns The notifications this call inserted (a repeat inserts none); claimed under `first` when given.
 * @throws the MongoDB or Redis error.
 */
export async function fanOut(deps: OutboxDeps, owed: readonly OwedFlip[], now: Date, first?: FirstAttempt): Promise<NotificationDoc[]> {
  if (owed.length === 0) return [];
  const alerting = owed.filter(({ check, entry }) => notifiesOn(entry) && check.status !== 'paused' && check.channels.length > 0);
  const channelIds = [...new Set(alerting.flatMap(({ check }) => check.channels))];
  const channels = channelIds.length === 0 ? [] : await Channel.find({ _id: { $in: channelIds } }).lean<ChannelDoc[]>();
  const byId = new Map(channels.map((c) => [c._id, c]));
  const notifications = alerting.flatMap(({ check, entry }) => notificationsOf(check, entry, byId, now, first));
  const inserted = await insertNew(Notification, notifications);
  crashPoint('notifications-inserted');

  // Only this call's claims delay their jobs; a notification another attempt inserted (a killed worker's) gets its job at once, which waits for that
  // claim's lease itself.
  const mine = new Set(inserted.map((n) => n._id));
  const jobs = notifications.map(({ _id, flipId, checkId, channelId }) => ({
    name: 'notify',
    data: { flipId, checkId, channelId },
    opts: { ...notifyJobOptions(deps.notify, flipId, channelId), ...(first && mine.has(_id) ? { delay: first.leaseMs } : {}) },
  }));
  await Promise.all([insertNew(Flip, owed.map(({ check, entry }) => flipOf(check._id, entry, now))), jobs.length > 0 && deps.queues.notify.addBulk(jobs)]);
  crashPoint('flip-inserted');
  return inserted;
}

function notificationsOf(check: OwingCheck, entry: OutboxFlip, channels: Map<string, ChannelDoc>, now: Date, first?: FirstAttempt): NotificationDoc[] {
  const status = entry.newStatus === 'up' ? 'up' : 'down';
  return alertingChannels(check, status, channels).map((channel) => ({
    _id: notificationIdOf(String(entry._id), channel._id),
    flipId: String(entry._id),
    checkId: check._id,
    channelId: channel._id,
    status,
    flipCreated: entry.at,
    reason: entry.reason,
    state: 'pending',
    error: '',
    attempts: 0,
    attemptLog: [],
    claimToken: null,
    leaseUntil: null,
    sendingSince: null,
    created: now,
    delivered: null,
    updated: now,
    ...(first ? leaseOf(first.token, first.leaseMs, now) : {}),
  }));
}

function flipOf(checkId: string, entry: OutboxFlip, now: Date): FlipDoc & { _id: Types.ObjectId } {
  const { _id, at, recorded, oldStatus, newStatus, reason } = entry;
  return { _id, checkId, created: at, recorded, processed: now, oldStatus, newStatus, reason };
}
