/**
 * A check's story (docs/web-app.md, "A check's page"): its pings, flips and notifications interleaved, newest first,
 * a page at a time. Every query reads an index (pings `{checkId, n}`, flips and notifications `{checkId, created}`) and
 * a page reads at most `size` of each, never the whole log.
 */
import { Ping, type PingDoc, type PingKind } from '../../../shared/models/ping.js';
import { Flip, type FlipDoc } from '../../../shared/models/flip.js';
import { pingsInWindow } from '../../../shared/pings/window.js';
import type { CheckDoc } from '../../../shared/models/check.js';
import { pairDurations } from '../../presenters/ping.js';
import { flipRows, notificationRows, pingRows, type EventRow } from './event-rows.js';
import type { EventsQuery, EventsWindow } from './events-query.js';

/** Pings before a page read to find the starts of its completions (docs/checks.md, "Runs"). */
const PAIRING_LOOKBACK = 200;
/** The most pings read to pair a page's completions with their starts. */
const PAIRING_MAX = 1000;

/** Stored kind of each ping filter. */
const PING_KINDS: Record<string, PingKind> = { success: 'success', fail: 'fail', start: 'start', log: 'log', ignored: 'ign' };

/** One page of events and the cursor of the next, older one. */
export interface EventsPage {
  rows: EventRow[];
  /** The query string of the next page (`before=<n>` or `older=<ms>`, the kind kept), null on the last page. */
  older: string | null;
}

/** Pings numbered at most this are pruned (docs/api-reference.md, "Endpoints": only the newest `ping_log_limit` are kept). */
function prunedUpTo(check: CheckDoc, pingLogLimit: number): number {
  return check.nPings - pingLogLimit;
}

/** Durations in milliseconds by ping number for the completions of `pings` (newest first), reading their starts. */
async function durationsOf(checkId: string, pings: PingDoc[], floor: number): Promise<Map<number, number>> {
  if (!pings.some((ping) => ping.kind === 'success' || ping.kind === 'fail')) return new Map();
  const newest = pings[0].n;
  const from = Math.max(floor, pings[pings.length - 1].n - PAIRING_LOOKBACK);
  const around = await Ping.find({ checkId, n: { $gt: from, $lte: newest } }, { n: 1, created: 1, kind: 1, rid: 1 })
    .sort({ n: -1 })
    .limit(PAIRING_MAX)
    .lean<PingDoc[]>();
  return pairDurations(around.map((ping) => ({ ...ping, hasBody: false })));
}

/** Pings of the page (`n` in (above, below), newest first) with their rows; `floor` bounds the read of their starts. */
async function pingPage(check: CheckDoc, floor: number, n: { above: number; below: number }, kind: PingKind | undefined, size: number) {
  const pings = await pingsInWindow({ checkId: check._id, ...n, size, ...(kind ? { where: { kind } } : {}) });
  return { pings, rows: pingRows(pings, await durationsOf(check._id, pings, floor)) };
}

/** Flips and notifications whose `created` lies in `window` (at most `size` of each). */
async function otherRows(check: CheckDoc, window: EventsWindow, size: number, which: { flips: boolean; notifications: boolean }) {
  const created = { ...(window.from ? { $gte: window.from } : {}), ...(window.until ? { $lt: window.until } : {}) };
  const range = Object.keys(created).length ? { created } : {};
  const flips = which.flips ? await Flip.find({ checkId: check._id, ...range }).sort({ created: -1 }).limit(size).lean<FlipDoc[]>() : [];
  const notes = which.notifications ? await notificationRows(check._id, range, size) : [];
  return [...flipRows(flips), ...notes];
}

/** Newest first; at the same moment a notification above its flip above its ping. */
function newestFirst(rows: EventRow[]): EventRow[] {
  const order = { notification: 0, flip: 1, ping: 2 };
  return rows.sort((a, b) => b.at.getTime() - a.at.getTime() || order[a.type] - order[b.type]);
}

/**
 * One page of a check's events, `size` pings at most (and the flips and notifications of the time they span), older
 * than the query's cursor.
 *
 * @param pingLogLimit - The project's `ping_log_limit`: older pings are pruned and not shown.
 */
export async function loadEvents(check: CheckDoc, pingLogLimit: number, query: EventsQuery, size: number): Promise<EventsPage> {
  const floor = prunedUpTo(check, pingLogLimit);
  const kept = query.kind ? `kind=${query.kind}&` : '';
  if (query.kind === 'flips' || query.kind === 'notifications') {
    const which = { flips: query.kind === 'flips', notifications: query.kind === 'notifications' };
    const rows = newestFirst(await otherRows(check, { from: null, until: query.older }, size, which));
    const oldest = rows.at(-1);
    return { rows, older: rows.length === size && oldest ? `${kept}older=${oldest.at.getTime()}` : null };
  }
  const n = { above: floor, below: query.before ?? check.nPings + 1 };
  const { pings, rows } = await pingPage(check, floor, n, query.kind ? PING_KINDS[query.kind] : undefined, size);
  const older = pings.length === size ? `${kept}before=${pings[size - 1].n}` : null;
  if (query.kind) return { rows, older };
  const [above] = query.before !== null
    ? await pingsInWindow({ checkId: check._id, above: query.before - 1, below: check.nPings + 1, size: 1, fields: { created: 1 } }, true)
    : [];
  const window = { from: older ? pings[size - 1].created : null, until: above?.created ?? null };
  return { rows: newestFirst([...rows, ...(await otherRows(check, window, size, { flips: true, notifications: true }))]), older };
}

/** What the live script asks for: events newer than ping `since` and than the moment `after`. */
export interface LiveCursor {
  since: number;
  after: Date;
}

/**
 * Events newer than `cursor` (at most `size` of each kind), newest first, and the cursor past them.
 *
 * @param pingLogLimit - The project's `ping_log_limit`.
 */
export async function eventsSince(check: CheckDoc, pingLogLimit: number, cursor: LiveCursor, size: number): Promise<{ rows: EventRow[]; cursor: LiveCursor }> {
  const floor = Math.max(prunedUpTo(check, pingLogLimit), cursor.since);
  // Pings are numbered up to the check's count: when the cursor is there, nothing newer can exist (the usual poll).
  const { rows } = floor >= check.nPings ? { rows: [] } : await pingPage(check, prunedUpTo(check, pingLogLimit), { above: floor, below: check.nPings + 1 }, undefined, size);
  const others = await otherRows(check, { from: new Date(cursor.after.getTime() + 1), until: null }, size, { flips: true, notifications: true });
  const all = newestFirst([...rows, ...others]);
  const newestPing = rows.find((row) => row.type === 'ping');
  const since = newestPing?.type === 'ping' ? newestPing.n : cursor.since;
  const after = others.reduce((latest, row) => (row.at > latest ? row.at : latest), cursor.after);
  return { rows: all, cursor: { since, after } };
}
