/**
 * The alert path, step 1: completing the flips a check owes. The store wrote each status change with its flip in the check's outbox; completing an
 * entry
 *
 * 1. inserts the notifications of the check's alerting channels (one per flip and channel, unique: a repeat inserts nothing), claimed for the
 *    caller's own first attempt when it makes one (the deadline worker does);
 * 2. inserts the flip and adds one notify job per notification (fixed ids), due when that claim's lease ends, else at once;
 * 3. pulls the entry from the check.
 *
 * A down flip of a check whose parent is down is held back, and a parent's recovery releases its held dependants (shared/alerts/dependencies.ts,
 * between steps 1 and 3; no query for a check without parents); the alerts of a check in a maintenance window are held back and one is owed at
 * the window's end (shared/alerts/maintenance-hold.ts).
 *
 * Crash points: after any step the entry stays in the outbox, and whoever completes it next (a retried deadline job, or the sweep once it is 10 s
 * old) repeats the steps; each is idempotent, so every flip and notification is written exactly once (docs/alerts.md, "Retries and delivery guarantee"). Delivery is
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
import { HELD_ERROR, heldByParents, markHeld, releaseHeld } from './dependencies.js';
import { heldByMaintenance, oweAfterMaintenance } from './maintenance-hold.js';
import { announceChanges } from '../status-pages/changes.js';

/** The check fields completing an entry reads. */
export type OwingCheck = Pick<CheckDoc, '_id' | 'projectId' | 'channels' | 'status' | 'tags' | 'dependsOn' | 'held'>;

/** One owed flip and its check as stored after the change. */
export interface OwedFlip {
  check: OwingCheck;
  entry: OutboxFlip;
}

/** What completing needs: the notify queue and its retry settings (`backoffMs` in milliseconds). */
export interface OutboxDeps {
  /** `deadlines` moves the job of a check held down by maintenance to the window's end (else the sweep does). */
  queues: Pick<Queues, 'notify' | 'redis'> & Partial<Pick<Queues, 'deadlines'>>;
  notify: Pick<NotifyConfig, 'attempts' | 'backoffMs'>;
}

/** A claim of the new notifications for an attempt the caller makes at once (`leaseMs` in milliseconds). */
export interface FirstAttempt {
  token: string;
  leaseMs: number;
}

/**
 * The check's channels that alert on a flip into `status` (docs/alerts.md, "Who gets alerted"): assigned, in the check's project, not disabled, not set to skip
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
 * Steps 1–2 above for a whole batch, with one read of the channels, one insert of notifications, one of flips and one add of jobs; then completes
 * the alerts released by recoveries in the batch (`depends_on`). A check paused by
 * the time its flip completes gets no alerts (docs/alerts.md, "Who gets alerted"). The caller pulls the entries after it (`pullOwed`).
 *
 * @param now - When the flips are processed and the notifications created.
 * @param first - Claims the new notifications for the caller's attempt; their jobs then wait for the lease to end.
 * @returns The notifications this call inserted (a repeat inserts none); claimed under `first` when given.
 * @throws the MongoDB or Redis error.
 */
export async function fanOut(deps: OutboxDeps, owed: readonly OwedFlip[], now: Date, first?: FirstAttempt): Promise<NotificationDoc[]> {
  if (owed.length === 0) return [];
  // Dependent checks (shared/alerts/dependencies.ts): no query unless a check with parents goes down.
  const byParents = await heldByParents(owed, now);
  const holding = await markHeld(owed, byParents);
  const alerting = owed.filter(({ check, entry }) => (entry.event !== undefined || notifiesOn(entry)) && check.status !== 'paused' && check.channels.length > 0);
  const channelIds = [...new Set(alerting.flatMap(({ check }) => check.channels))];
  const channels = channelIds.length === 0 ? [] : await Channel.find({ _id: { $in: channelIds } }).lean<ChannelDoc[]>();
  const byId = new Map(channels.map((c) => [c._id, c]));
  // Maintenance windows (shared/alerts/maintenance-hold.ts): one read of the windows when there are alerts.
  const inMaintenance = await heldByMaintenance(alerting, now);
  const notifications = alerting.flatMap(({ check, entry }) => {
    const id = String(entry._id);
    if (byParents.has(id)) return heldNotificationsOf(check, entry, byId, now);
    if (inMaintenance.has(id)) return notificationsOf(check, entry, byId, now).map((n) => ({ ...n, ...HELD }));
    return notificationsOf(check, entry, byId, now, first);
  });
  // Held notifications are inserted `failed` (logged as skipped) and never sent.
  const inserted = (await insertNew(Notification, notifications)).filter((n) => n.state !== 'failed');
  crashPoint('notifications-inserted');

  // Only this call's claims delay their jobs; a notification another attempt inserted (a killed worker's) gets its job at once, which waits for that
  // claim's lease itself.
  const mine = new Set(inserted.map((n) => n._id));
  const jobs = notifications.filter((n) => n.state !== 'failed').map(({ _id, flipId, checkId, channelId }) => ({
    name: 'notify',
    data: { flipId, checkId, channelId },
    opts: { ...notifyJobOptions(deps.notify, flipId, channelId), ...(first && mine.has(_id) ? { delay: first.leaseMs } : {}) },
  }));
  // A rule's alert (late, reminder, a window's end) and a released one are not flips: no flip document for them.
  const flips = owed.filter(({ entry }) => !entry.alertOnly && entry.event === undefined).map(({ check, entry }) => ({
    ...flipOf(check._id, entry, now, byParents.has(String(entry._id))),
    ...(inMaintenance.has(String(entry._id)) ? { maintenance: true } : {}),
  }));
  await Promise.all([insertNew(Flip, flips), jobs.length > 0 && deps.queues.notify.addBulk(jobs)]);
  crashPoint('flip-inserted');
  // Status pages showing these checks are out of date (shared/status-pages/changes.ts).
  await announceChanges(deps.queues.redis, flips.map((f) => ({ kind: 'check', id: f.checkId })));
  const heldDown = new Map(alerting.filter(({ entry }) => entry.newStatus === 'down' && inMaintenance.has(String(entry._id))).map(({ check, entry }) => [check._id, inMaintenance.get(String(entry._id))!]));
  await oweAfterMaintenance(deps.queues.deadlines, heldDown);
  const released = await releaseHeld(owed, holding, now);
  if (released.length > 0) await completeOwed(deps, released, now);
  return inserted;
}

/** The notifications of a held-back down flip: never sent (`failed` without attempts, shown `skipped`), marked `parent_down`. */
function heldNotificationsOf(check: OwingCheck, entry: OutboxFlip, channels: Map<string, ChannelDoc>, now: Date): NotificationDoc[] {
  const marks = [...(entry.marks ?? []), 'parent_down' as const];
  return notificationsOf(check, entry, channels, now).map((n) => ({ ...n, marks, state: 'failed' as const, error: HELD_ERROR }));
}

/** A notification held back by a maintenance window: never sent (logged as skipped), with the reason. */
const HELD = { state: 'failed', error: 'in maintenance', held: true, claimToken: null, leaseUntil: null, sendingSince: null } as const;

function notificationsOf(check: OwingCheck, entry: OutboxFlip, channels: Map<string, ChannelDoc>, now: Date, first?: FirstAttempt): NotificationDoc[] {
  // A rule's alert goes where down alerts go.
  const status = entry.newStatus === 'up' && entry.event === undefined ? 'up' : 'down';
  return alertingChannels(check, status, channels).map((channel) => ({
    _id: notificationIdOf(String(entry._id), channel._id),
    flipId: String(entry._id),
    checkId: check._id,
    channelId: channel._id,
    status,
    flipCreated: entry.at,
    reason: entry.reason,
    ...(entry.marks?.length ? { marks: entry.marks } : {}),
    ...(entry.event ? { event: entry.event } : {}),
    ...(entry.n ? { n: entry.n } : {}),
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

function flipOf(checkId: string, entry: OutboxFlip, now: Date, held: boolean): FlipDoc & { _id: Types.ObjectId } {
  const { _id, at, recorded, oldStatus, newStatus, reason } = entry;
  const marks = held ? [...(entry.marks ?? []), 'parent_down' as const] : entry.marks;
  return { _id, checkId, created: at, recorded, processed: now, oldStatus, newStatus, reason, ...(marks?.length ? { marks } : {}) };
}
