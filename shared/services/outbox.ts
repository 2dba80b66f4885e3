/**
 * Completing the flips a check owes (its outbox; see `OutboxFlip` in
 * shared/models/check.ts). Pings, the API (pause, resume) and the deadline
 * worker write a status change and its outbox entry in ONE update of the
 * check; this module then, for a whole batch of entries at once:
 *
 * 1. reads the channels of every check in the batch (one query);
 * 2. inserts the notifications of the flips that alert (one insertMany;
 *    unique per flip and channel, so a repeat inserts nothing);
 * 3. inserts the flips, already processed since their notifications exist,
 *    and adds the notify jobs (in parallel; flip ids and job ids are fixed);
 *    or, for a completer that sends alerts itself (`sendNow`, the deadline
 *    worker), inserts the notifications already claimed in step 2 and hands
 *    those it inserted to be sent once the flips are stored: no notify job, no
 *    claim round trip. Should it die first, they stay claimed until the lease
 *    runs out; a repeated completion gives them notify jobs, which take them
 *    over then (as the sweep does with any claim that ran out);
 * 4. pulls the completed entries from their checks (one round of bulk writes),
 *    unless a ping moved the check meanwhile (the sweep pulls those). Pings
 *    leave the pull to the sweep altogether (`pull: false`): a ping then writes
 *    its check once, so a server whose updates are not atomic (FerretDB 1.x)
 *    cannot have a completion write back a check read before the next ping.
 *
 * A crash at any point leaves the entry in the outbox, and the next attempt
 * (a retried deadline timer, or the sweep) does the same steps again, or, once
 * the flip is stored, the sweep only pulls it (see {@link settleOutbox}): every
 * flip and every notification ends up written exactly once (behaviour.md §6
 * rules 3–4).
 */
import { randomUUID } from 'node:crypto';
import { Types, type Model } from 'mongoose';
import { Channel, type ChannelDoc } from '../models/channel.js';
import { Check, type CheckDoc, type OutboxFlip } from '../models/check.js';
import { Flip, type FlipDoc } from '../models/flip.js';
import { Notification, type NotificationDoc } from '../models/notification.js';
import { notifiesOn, type FlipChange } from '../domain/status.js';
import { channelSendsOn } from '../notify/kinds.js';
import { leaseOf, notificationIdOf, type HeldNotification } from '../notify/notifications.js';
import { notifyJobOptions } from '../queues/notify.js';
import type { Queues } from '../queues/index.js';
import type { NotifyConfig } from '../config.js';
import { bulkWriteChunked } from '../bulk.js';
import { crashPoint } from '../crash.js';
import { logger } from '../logger.js';

const log = logger.child({ module: 'outbox' });

/** MongoDB's duplicate key error code. */
const DUPLICATE_KEY = 11000;

/** The check fields completing an outbox entry reads. */
export type OutboxCheck = Pick<CheckDoc, '_id' | 'projectId' | 'channels' | 'status' | 'nPings'>;

/** One owed flip and its check (as stored after the status change, `nPings` included). */
export interface OwedFlip {
  check: OutboxCheck;
  entry: OutboxFlip;
}

/** A notification inserted already claimed, for its creator to send at once, with the channel to send it through. */
export interface SendNow extends HeldNotification {
  channel: ChannelDoc;
}

/**
 * What completing needs: the notify queue and its retry settings (`backoffMs`
 * in milliseconds); `pull: false` leaves the completed entries for the sweep
 * to pull (see {@link completeOutbox}). With `sendNow`, the new notifications
 * are inserted already claimed for `leaseMs` milliseconds and handed to
 * `send` once their flips are stored, instead of getting notify jobs.
 */
export interface OutboxDeps {
  queues: Pick<Queues, 'notify'>;
  notify: Pick<NotifyConfig, 'attempts' | 'backoffMs'>;
  pull?: boolean;
  sendNow?: { leaseMs: number; send(alerts: readonly SendNow[]): void };
}

/**
 * A new outbox entry for a status change.
 *
 * @param change - Old and new stored status and the reason.
 * @param at - When the status changed (for a missed deadline, the computed going-down moment).
 * @param now - When the change is written.
 */
export function outboxEntry(change: FlipChange, at: Date, now: Date): OutboxFlip {
  return { _id: new Types.ObjectId(), at, recorded: now, ...change };
}

/**
 * The channels of the given checks, one query for all of them.
 *
 * @returns Channel documents by id; a deleted channel is absent.
 */
export async function loadChannels(checks: readonly Pick<CheckDoc, 'channels'>[]): Promise<Map<string, ChannelDoc>> {
  const ids = [...new Set(checks.flatMap((check) => check.channels))];
  if (ids.length === 0) return new Map();
  const channels = await Channel.find({ _id: { $in: ids } }).lean<ChannelDoc[]>();
  return new Map(channels.map((channel) => [channel._id, channel]));
}

/**
 * The check's channels that alert on a flip into `status` (behaviour.md §6
 * rule 4): assigned, in the check's project, not disabled, not set to skip
 * this direction; fastest last delivery first, never-used last.
 */
export function alertingChannels(check: OutboxCheck, status: 'up' | 'down', channels: Map<string, ChannelDoc>): ChannelDoc[] {
  const never = Number.POSITIVE_INFINITY;
  return check.channels
    .map((id) => channels.get(id))
    .filter((c): c is ChannelDoc => c !== undefined && c.projectId === check.projectId && !c.disabled)
    .filter((c) => channelSendsOn(c.kind, c.value, status))
    .sort((a, b) => (a.lastNotifyDurationMs ?? never) - (b.lastNotifyDurationMs ?? never) || a.created.getTime() - b.created.getTime());
}

/**
 * Completes owed flips (steps 1–4 above). A check paused by the time its
 * flip completes gets no alerts (behaviour.md §6); the flip is still stored.
 *
 * @param deps - Notify queue, retry settings, and whether to pull the entries.
 * @param owed - Entries with their checks as stored after the change.
 * @param now - When the flips are marked processed and the notifications created.
 * @param channels - The checks' channels when the caller already read them (saves a round trip).
 * @returns How many notifications were created (or found already there).
 * @throws the MongoDB error; the entries stay in the outbox for a retry.
 */
export async function completeOutbox(
  deps: OutboxDeps,
  owed: readonly OwedFlip[],
  now: Date,
  channels?: Map<string, ChannelDoc>,
): Promise<number> {
  if (owed.length === 0) return 0;
  const alerting = owed.filter(({ check, entry }) => notifiesOn(entry) && check.status !== 'paused' && check.channels.length > 0);
  const byId = channels ?? (await loadChannels(alerting.map(({ check }) => check)));
  const token = randomUUID();
  const claim = deps.sendNow ? leaseOf(token, deps.sendNow.leaseMs, now) : {};
  const notifications = alerting.flatMap(({ check, entry }) => notificationsOf(check, entry, byId, now).map((n) => ({ ...n, ...claim })));
  const inserted = await insertNew(Notification, notifications);
  crashPoint('notifications-inserted');

  // Those inserted here are sent at once (with `sendNow`); any other was created by an earlier completion and gets its job again.
  const sent = deps.sendNow ? new Set(inserted) : new Set<NotificationDoc>();
  const flips = owed.map(({ check, entry }) => flipOf(check._id, entry, now));
  const jobs = notifications.filter((n) => !sent.has(n)).map(({ flipId, checkId, channelId }) => ({
    name: 'notify',
    data: { flipId, checkId, channelId },
    opts: notifyJobOptions(deps.notify, flipId, channelId),
  }));
  await Promise.all([
    insertNew(Flip, flips),
    // A lost add is repaired by the sweep, which re-queues pending notifications.
    jobs.length > 0 && deps.queues.notify.addBulk(jobs).catch((err: unknown) => log.error({ err }, 'cannot enqueue notify jobs; the sweep will')),
  ]);
  crashPoint('flip-inserted');
  if (sent.size > 0) deps.sendNow?.send([...sent].map((notification) => ({ notification, token, channel: byId.get(notification.channelId)! })));
  if (deps.pull !== false) await pullEntries(owed);
  return notifications.length;
}

/**
 * Finishes the owed flips the sweep found: an entry whose flip is stored is
 * complete but for its pull (the flip is written after its notifications, and
 * a lost notify job is re-queued by the sweep's notification step), so it is
 * only pulled; the others are completed (see {@link completeOutbox}). A
 * completion that left its pull to the sweep (pings, deadlines) thereby costs
 * the sweep one read and one pull, not a second completion.
 *
 * @param owed - Entries with their checks as stored (`nPings` guards the pull).
 * @param now - When the flips completed here are marked processed and their notifications created.
 * @throws the MongoDB error; the entries stay in the outbox for the next sweep.
 */
export async function settleOutbox(deps: OutboxDeps, owed: readonly OwedFlip[], now: Date): Promise<void> {
  if (owed.length === 0) return;
  const stored = await Flip.find({ _id: { $in: owed.map(({ entry }) => entry._id) } }, { _id: 1 }).lean<{ _id: Types.ObjectId }[]>();
  const complete = new Set(stored.map((flip) => String(flip._id)));
  const todo = owed.filter(({ entry }) => !complete.has(String(entry._id)));
  // Completed first, then every entry pulled in one round: a check owing two entries gets one update.
  await completeOutbox({ ...deps, pull: false }, todo, now);
  await pullEntries(owed);
}

/**
 * Pulls completed entries from their checks (one round of bulk writes); an
 * entry whose check a ping moved since it was read is left for the sweep.
 *
 * @param owed - Completed entries with their checks as read (`nPings` guards the pull).
 * @throws the MongoDB error (the sweep pulls what is left).
 */
export async function pullEntries(owed: readonly OwedFlip[]): Promise<void> {
  if (owed.length === 0) return;
  // The whole entry as stored is the $pull condition: MongoDB matches it field by field,
  // and servers that compare array elements whole (FerretDB 1.x) match it too. The pull
  // only applies while no ping has moved the check since: a server whose updates are not
  // atomic (FerretDB 1.x) would otherwise write back a check read before that ping. An
  // entry left behind is completed again, harmlessly, and pulled by the sweep.
  await bulkWriteChunked(
    owed.map(({ check, entry }) => ({ updateOne: { filter: { _id: check._id, nPings: check.nPings }, update: { $pull: { outbox: entry } } } })),
    (chunk) => Check.bulkWrite(chunk, { ordered: false }),
  );
}

function notificationsOf(check: OutboxCheck, entry: OutboxFlip, channels: Map<string, ChannelDoc>, now: Date): NotificationDoc[] {
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
  }));
}

function flipOf(checkId: string, entry: OutboxFlip, now: Date): FlipDoc & { _id: Types.ObjectId } {
  const { _id, at, recorded, oldStatus, newStatus, reason } = entry;
  return { _id, checkId, created: at, recorded, processed: now, oldStatus, newStatus, reason };
}

/**
 * insertMany that treats documents already there (a repeated completion) as
 * inserted by someone else.
 *
 * @returns The documents this call inserted (none when the server does not say which failed).
 * @throws the MongoDB error other than duplicate keys.
 */
async function insertNew<T>(model: Model<T>, docs: T[]): Promise<T[]> {
  if (docs.length === 0) return [];
  try {
    // The documents are built whole here: `lean` skips hydrating and validating them.
    await model.insertMany(docs, { ordered: false, lean: true });
    return docs;
  } catch (err) {
    const { writeErrors, code } = err as { writeErrors?: WriteErrorOf[] | WriteErrorOf; code?: number };
    const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [{ code }];
    if (list.some((e) => e.code !== DUPLICATE_KEY)) throw err;
    const taken = new Set(list.map((e) => e.index));
    return taken.has(undefined) ? [] : docs.filter((_doc, i) => !taken.has(i));
  }
}

/** What a failed insert reports per document: its error code and its position in the batch. */
interface WriteErrorOf {
  code?: number;
  index?: number;
}
