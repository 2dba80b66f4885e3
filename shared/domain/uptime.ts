/**
 * Uptime and downtimes of a check from its flips (docs/checks.md, "Flips": every stored status change is a flip, pause and
 * resume included, kept for downtime statistics). Time spent `new` (never pinged) or `paused` is not monitored, so it
 * counts neither as up nor as down: uptime is time up ÷ (time up + time down). Pure.
 */
import moment from 'moment-timezone';
import type { StoredStatus } from '../models/check.js';

/** What uptime reads of a flip. */
export interface StatusChange {
  /** When the status changed. */
  created: Date;
  oldStatus: StoredStatus;
  newStatus: StoredStatus;
}

/** A stretch of time in one status, `[from, to)`. */
export interface StatusPeriod {
  from: Date;
  to: Date;
  status: StoredStatus;
}

/**
 * The check's statuses over `[from, to)`: before the first change in that span it had that change's old status (or
 * `current` when nothing changed), then each change's new status.
 *
 * @param changes - in any order; those outside `[from, to)` are ignored.
 * @param current - the check's status now, for a span without changes.
 */
export function statusPeriods(changes: readonly StatusChange[], current: StoredStatus, from: Date, to: Date): StatusPeriod[] {
  const first = changes.filter((c) => c.created >= from && c.created < to).reduce<StatusChange | null>((a, c) => (a && a.created <= c.created ? a : c), null);
  return periodsFrom(first?.oldStatus ?? current, changes, from, to);
}

/**
 * The statuses over `[from, to)` of a check in status `start` at `from`, then each change's new status.
 *
 * @param changes - in any order; those outside `[from, to)` are ignored.
 */
export function periodsFrom(start: StoredStatus, changes: readonly Pick<StatusChange, 'created' | 'newStatus'>[], from: Date, to: Date): StatusPeriod[] {
  const inside = changes.filter((c) => c.created >= from && c.created < to).sort((a, b) => a.created.getTime() - b.created.getTime());
  const periods: StatusPeriod[] = [];
  let at = from;
  let status = start;
  for (const change of inside) {
    if (change.created > at) periods.push({ from: at, to: change.created, status });
    at = change.created;
    status = change.newStatus;
  }
  if (to > at) periods.push({ from: at, to, status });
  return periods;
}

/** Time up and down within a span, milliseconds, and their ratio. */
export interface Uptime {
  upMs: number;
  downMs: number;
  /** `upMs / (upMs + downMs)`, 0 to 1; null when the check was only new or paused. */
  ratio: number | null;
}

/** Milliseconds of `period` inside `[from, to)`. */
function overlapMs(period: StatusPeriod, from: Date, to: Date): number {
  return Math.max(0, Math.min(period.to.getTime(), to.getTime()) - Math.max(period.from.getTime(), from.getTime()));
}

/** Uptime within `[from, to)` of `periods` (statusPeriods); new and paused time left out. */
export function uptimeIn(periods: readonly StatusPeriod[], from: Date, to: Date): Uptime {
  let upMs = 0;
  let downMs = 0;
  for (const period of periods) {
    if (period.status === 'up') upMs += overlapMs(period, from, to);
    if (period.status === 'down') downMs += overlapMs(period, from, to);
  }
  return { upMs, downMs, ratio: upMs + downMs > 0 ? upMs / (upMs + downMs) : null };
}

/** A calendar month in a zone. */
export interface Month {
  /** "November 2026". */
  label: string;
  start: Date;
  end: Date;
}

/**
 * The calendar months in `zone`, newest first: the month of `now` and the `count − 1` before it.
 *
 * @param zone - IANA zone, already checked (server/pages/kit/times.ts `zoneOr`).
 */
export function recentMonths(now: Date, zone: string, count: number): Month[] {
  const first = moment(now).tz(zone).startOf('month');
  return Array.from({ length: count }, (_, i) => {
    const start = first.clone().subtract(i, 'months');
    return { label: start.format('MMMM YYYY'), start: start.toDate(), end: start.clone().add(1, 'month').toDate() };
  });
}

/** Downtimes of one month: down periods that overlap it, and their time inside it. */
export interface MonthDowntimes extends Month, Downtimes {}

/** Downtimes within a span: down spells that overlap it (adjacent down periods are one spell), and time down inside it. */
export interface Downtimes {
  count: number;
  /** Milliseconds down within the span. */
  downMs: number;
}

/** The downtimes of `periods` (statusPeriods or periodsFrom) within `[from, to)`. */
export function downtimesIn(periods: readonly StatusPeriod[], from: Date, to: Date): Downtimes {
  let count = 0;
  let downMs = 0;
  let previous: StatusPeriod | null = null;
  for (const period of periods) {
    const inside = period.status === 'down' ? overlapMs(period, from, to) : 0;
    if (inside > 0) {
      downMs += inside;
      const continues = previous?.status === 'down' && previous.to.getTime() === period.from.getTime() && overlapMs(previous, from, to) > 0;
      if (!continues) count++;
    }
    previous = period;
  }
  return { count, downMs };
}

/**
 * Per month, the down periods overlapping it (one spanning two months counts in both) and the time down inside it,
 * as the reference's monthly downtime summary does.
 */
export function downtimesByMonth(periods: readonly StatusPeriod[], months: readonly Month[]): MonthDowntimes[] {
  return months.map((month) => ({ ...month, ...downtimesIn(periods, month.start, month.end) }));
}
