/**
 * Email reports and reminders (docs/reports.md): the periods they cover in the user's time zone, and each check's
 * downtime and uptime over a period computed from its flips. Pure: no I/O, `now` is a parameter.
 */
import moment from 'moment-timezone';
import { downtimesIn, periodsFrom, type StatusChange } from './uptime.js';

/** How often a user gets the report of their checks. */
export type ReportPeriod = 'off' | 'daily' | 'weekly' | 'monthly';
/** How often a user is reminded while any of their checks is down. */
export type ReminderPeriod = 'off' | 'hourly' | 'daily';
/** A period that is not `off`. */
export type Every = Exclude<ReportPeriod | ReminderPeriod, 'off'>;

/** The choices of each setting, in the order the account page offers them. */
export const REPORT_PERIODS: readonly ReportPeriod[] = ['off', 'daily', 'weekly', 'monthly'];
export const REMINDER_PERIODS: readonly ReminderPeriod[] = ['off', 'hourly', 'daily'];

/** A span of time, `start` included, `end` excluded. */
export interface Period {
  start: Date;
  end: Date;
}

/** `tz` when moment-timezone knows it, else `UTC`: a stored zone a newer tz database dropped still gets its mails. */
export function knownZone(tz: string | null | undefined): string {
  return tz && moment.tz.zone(tz) ? tz : 'UTC';
}

/** moment's unit of each period: a week starts on Monday (ISO 8601). */
const START_OF = { hourly: 'hour', daily: 'day', weekly: 'isoWeek', monthly: 'month' } as const;
const LENGTH_OF = { hourly: 'hour', daily: 'day', weekly: 'week', monthly: 'month' } as const;

/**
 * The period holding `now` in zone `tz`: the local hour, day, week (Monday 00:00) or month, DST included (a local day may last 23 or 25 hours).
 * @throws Error when moment-timezone does not know `tz` (the User model's `tz` is validated when set).
 */
export function periodAt(every: Every, tz: string, now: Date): Period {
  if (!moment.tz.zone(tz)) throw new Error(`unknown time zone: ${tz}`);
  const start = moment.tz(now, tz).startOf(START_OF[every]);
  return { start: start.toDate(), end: start.clone().add(1, LENGTH_OF[every]).toDate() };
}

/** The last whole period before the one holding `now` (what a report sent at `now` covers). @throws as {@link periodAt}. */
export function lastPeriod(every: Every, tz: string, now: Date): Period {
  const { start } = periodAt(every, tz, now);
  return { start: moment.tz(start, tz).subtract(1, LENGTH_OF[every]).toDate(), end: start };
}

/** A check's downtime over a period. */
export interface Downtime {
  /** Down spells that overlap the period (one already down at its start counts). */
  downtimes: number;
  /** Seconds down within the period. */
  downSeconds: number;
  /** The share of the observed time not down, 0–1; 1 when nothing of the period was observed. */
  uptime: number;
}

/**
 * The downtime of one check over `period`, counted only from `observedFrom` (the check's creation when later than the
 * start), from its status periods (shared/domain/uptime.ts); new and paused time count as observed and not down.
 *
 * @param downAtStart - Whether the check was down when observation began (its last flip before it went into `down`).
 * @param flips - The check's flips inside the period, any order; those outside it are ignored.
 */
export function downtimeOf(period: Period, downAtStart: boolean, flips: readonly Pick<StatusChange, 'created' | 'newStatus'>[], observedFrom: Date = period.start): Downtime {
  const from = new Date(Math.max(period.start.getTime(), observedFrom.getTime()));
  const { count, downMs } = downtimesIn(periodsFrom(downAtStart ? 'down' : 'up', flips, from, period.end), from, period.end);
  const observedMs = Math.max(0, period.end.getTime() - from.getTime());
  return { downtimes: count, downSeconds: Math.round(downMs / 1000), uptime: observedMs === 0 ? 1 : 1 - downMs / observedMs };
}

/** A duration for a mail, from seconds: `0 min`, `5 min`, `2 h 5 min`, `3 d 4 h` (a minute at least when anything was down). */
export function formatDowntime(seconds: number): string {
  const minutes = seconds > 0 ? Math.max(1, Math.round(seconds / 60)) : 0;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return minutes % 60 > 0 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return `${minutes} min`;
}

/** An uptime share (0–1) as a percentage with two decimals, never rounded up to 100.00% while anything was down. */
export function formatUptime(uptime: number): string {
  const percent = Math.floor(uptime * 10000) / 100;
  return `${percent.toFixed(2)}%`;
}
