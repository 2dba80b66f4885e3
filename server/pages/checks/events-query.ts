/**
 * The query string of a check's events (docs/web-app.md, "A check's page"): `kind` (a filter), `before=<n>` (pings
 * older than ping n, and what happened in their time) or, for the flips and notifications filters, `older=<ms>`
 * (events before that moment, milliseconds since the epoch). A link reproduces the view.
 */
import { AppError } from '../../../shared/errors.js';

/** The filters of the events list: a ping kind, the flips or the notifications. */
export const EVENT_FILTERS = ['success', 'fail', 'start', 'log', 'ignored', 'flips', 'notifications'] as const;

/** One of {@link EVENT_FILTERS}. */
export type EventFilter = (typeof EVENT_FILTERS)[number];

/** What a page of events shows. */
export interface EventsQuery {
  /** Null for every kind. */
  kind: EventFilter | null;
  /** Ping number: show older pings only; null for the newest. */
  before: number | null;
  /** With the flips or notifications filter: show events before this moment only; null for the newest. */
  older: Date | null;
}

/** A window of time: `from` inclusive, `until` exclusive, null for open. */
export interface EventsWindow {
  from: Date | null;
  until: Date | null;
}

/** A positive whole number of up to 15 digits (a ping number, milliseconds since the epoch). */
const COUNT_RE = /^[1-9]\d{0,14}$/;

/** The query's one string value of `name`, or undefined; a repeated parameter is a bad request. */
function valueOf(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new AppError(400, `${name} is given more than once`);
  return value;
}

/**
 * Reads `kind`, `before` and `older` from a page's query.
 *
 * @throws AppError(400) naming the parameter when a value is not one the list knows.
 */
export function parseEventsQuery(query: Record<string, unknown>): EventsQuery {
  const kind = valueOf(query, 'kind');
  if (kind !== undefined && !(EVENT_FILTERS as readonly string[]).includes(kind)) {
    throw new AppError(400, `kind must be one of ${EVENT_FILTERS.join(', ')}`);
  }
  const before = valueOf(query, 'before');
  if (before !== undefined && !COUNT_RE.test(before)) throw new AppError(400, 'before must be a ping number');
  const older = valueOf(query, 'older');
  if (older !== undefined && !COUNT_RE.test(older)) throw new AppError(400, 'older must be a moment in milliseconds since 1970');
  return { kind: (kind as EventFilter | undefined) ?? null, before: before ? Number(before) : null, older: older ? new Date(Number(older)) : null };
}

/**
 * The live script's cursor: `since` (the newest ping number shown, 0 for none) and `after` (the newest flip or
 * notification shown, milliseconds since the epoch, 0 for none).
 *
 * @throws AppError(400) when either is missing or not a whole number.
 */
export function parseLiveCursor(query: Record<string, unknown>): { since: number; after: Date } {
  const since = valueOf(query, 'since') ?? '';
  const after = valueOf(query, 'after') ?? '';
  const whole = /^(0|[1-9]\d{0,14})$/;
  if (!whole.test(since) || !whole.test(after)) throw new AppError(400, 'since and after must be whole numbers');
  return { since: Number(since), after: new Date(Number(after)) };
}
