/**
 * The rows of a check's events list: a ping, a flip or a notification, in the words the page shows (server/pages/
 * ping-text.ts, shared/domain/marks.ts, the notification log's presenter). Times stay `Date`s: the template shows them
 * in the viewer's zone.
 */
import type { PingDoc } from '../../../shared/models/ping.js';
import type { FlipDoc } from '../../../shared/models/flip.js';
import type { StoredStatus } from '../../../shared/models/check.js';
import { Channel, type ChannelDoc } from '../../../shared/models/channel.js';
import { Notification, type NotificationDoc } from '../../../shared/models/notification.js';
import { describeMarks } from '../../../shared/domain/marks.js';
import { presentNotification } from '../../presenters/notification.js';
import { bodyPreview, bytesOf, kindWords, sourceWords } from './ping-text.js';

/** A ping's row. */
export interface PingRow {
  type: 'ping';
  at: Date;
  n: number;
  /** The stored kind, for the row's class. */
  kind: PingDoc['kind'];
  /** "success", "ignored", "exit status 3". */
  words: string;
  /** Milliseconds since its start (docs/checks.md, "Runs"), null when not paired. */
  durationMs: number | null;
  rid: string | null;
  source: string;
  /** The user agent; `""` for an email ping, whose source names the sender. */
  ua: string;
  /** First characters of the body, "binary, N bytes", or null for none. */
  preview: string | null;
}

/** A flip's row. */
export interface FlipRow {
  type: 'flip';
  at: Date;
  oldStatus: StoredStatus;
  newStatus: StoredStatus;
  reason: string;
  /** The alerting rules' marks in words, `""` when none. */
  marks: string;
  maintenance: boolean;
}

/** A notification's row. */
export interface NotificationRow {
  type: 'notification';
  at: Date;
  /** The integration's name (or kind), "deleted integration" once gone. */
  channel: string;
  status: string;
  outcome: string;
  attempts: number;
  error: string;
  reason: string;
}

/** A row of the events list. */
export type EventRow = PingRow | FlipRow | NotificationRow;

/**
 * The rows of `pings` (body included, for the preview).
 *
 * @param durations - Milliseconds by ping number (server/presenters/ping.ts pairDurations).
 */
export function pingRows(pings: PingDoc[], durations: Map<number, number>): PingRow[] {
  return pings.map((ping) => ({
    type: 'ping',
    at: ping.created,
    n: ping.n,
    kind: ping.kind,
    words: kindWords(ping),
    durationMs: durations.get(ping.n) ?? null,
    rid: ping.rid,
    source: sourceWords(ping),
    ua: ping.scheme === 'email' ? '' : ping.ua,
    preview: bodyPreview(bytesOf(ping.body)),
  }));
}

/** The rows of `flips`. */
export function flipRows(flips: FlipDoc[]): FlipRow[] {
  return flips.map((flip) => ({
    type: 'flip',
    at: flip.created,
    oldStatus: flip.oldStatus,
    newStatus: flip.newStatus,
    reason: flip.reason,
    marks: describeMarks(flip.marks),
    maintenance: flip.maintenance === true,
  }));
}

/**
 * The newest `size` notifications of a check in `range` (the `checkId, created` index), as rows.
 *
 * @param range - `{}` or `{ created: { $gte?, $lt? } }`.
 */
export async function notificationRows(checkId: string, range: object, size: number): Promise<NotificationRow[]> {
  const found = await Notification.find({ checkId, ...range }).sort({ created: -1, _id: 1 }).limit(size).lean<NotificationDoc[]>();
  const ids = [...new Set(found.map((n) => n.channelId))];
  const channels = ids.length ? await Channel.find({ _id: { $in: ids } }, { name: 1, kind: 1 }).lean<ChannelDoc[]>() : [];
  const byId = new Map(channels.map((c) => [c._id, c]));
  return found.map((notification) => {
    const channel = byId.get(notification.channelId) ?? null;
    const json = presentNotification({ notification, channel });
    return {
      type: 'notification',
      at: notification.created,
      channel: channel ? channel.name || channel.kind : 'deleted integration',
      status: json.status,
      outcome: json.outcome,
      attempts: json.attempts,
      error: json.error,
      reason: json.reason ?? '',
    };
  });
}
