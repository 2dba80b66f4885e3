/**
 * What a public status page says (docs/status-pages.md): each component's state now, the page's overall status, and a component's daily uptime
 * over the last 90 days from its flips (shared/domain/uptime.ts: new and paused time count neither up nor down). Pure.
 */
import moment from 'moment-timezone';
import type { StoredStatus } from '../models/check.js';
import { downtimesIn, periodsFrom, uptimeIn, type StatusChange, type StatusPeriod } from './uptime.js';

/** A page's slug (its address `/status/<slug>/`): lower-case letters, digits and inner hyphens, 1 to 64 characters. */
export const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Days of history a page shows. */
export const HISTORY_DAYS = 90;

/** A component's state now. */
export type ComponentState = 'operational' | 'outage' | 'maintenance' | 'paused' | 'unknown';

/** The page's overall status. */
export type OverallStatus = 'operational' | 'partial' | 'major' | 'maintenance';

/** What visitors read for each overall status. */
export const OVERALL_LABELS: Readonly<Record<OverallStatus, string>> = {
  operational: 'All systems operational',
  partial: 'Partial outage',
  major: 'Major outage',
  maintenance: 'Under maintenance',
};

/** What visitors read for each component state. */
export const STATE_LABELS: Readonly<Record<ComponentState, string>> = {
  operational: 'Operational',
  outage: 'Outage',
  maintenance: 'Under maintenance',
  paused: 'Not monitored',
  unknown: 'No data yet',
};

/** A component's state from its check's stored status (a flip changes it) and whether a maintenance window covers it now. */
export function componentState(status: StoredStatus, inMaintenance: boolean): ComponentState {
  if (inMaintenance) return 'maintenance';
  if (status === 'down') return 'outage';
  if (status === 'up') return 'operational';
  return status === 'paused' ? 'paused' : 'unknown';
}

/**
 * The overall status: an outage of more than half of the monitored components (those up, down or in maintenance) is major, any other outage
 * partial; with no outage, any component in maintenance makes it "under maintenance".
 */
export function overallStatus(states: readonly ComponentState[]): OverallStatus {
  const outages = states.filter((s) => s === 'outage').length;
  const monitored = states.filter((s) => s === 'outage' || s === 'operational' || s === 'maintenance').length;
  if (outages > 0) return outages * 2 > monitored ? 'major' : 'partial';
  return states.includes('maintenance') ? 'maintenance' : 'operational';
}

/** A calendar day in the page's zone: `[start, end)`, the last one cut at the present. */
export interface Day {
  /** `2026-11-28`. */
  date: string;
  start: Date;
  end: Date;
}

/**
 * The last {@link HISTORY_DAYS} days in `zone`, oldest first, today last (ending at `now`).
 * @param zone - IANA zone, already checked.
 */
export function historyDays(now: Date, zone: string): Day[] {
  const today = moment(now).tz(zone).startOf('day');
  return Array.from({ length: HISTORY_DAYS }, (_, i) => {
    const start = today.clone().subtract(HISTORY_DAYS - 1 - i, 'days');
    const end = i === HISTORY_DAYS - 1 ? now : start.clone().add(1, 'day').toDate();
    return { date: start.format('YYYY-MM-DD'), start: start.toDate(), end };
  });
}

/** How a day's bar is coloured: no monitored time, fully up, under 1 % down, more. */
export type DayLevel = 'none' | 'up' | 'minor' | 'major';

/** One day of a component's history. */
export interface DayUptime {
  date: string;
  level: DayLevel;
  /** Up ÷ monitored time, 0 to 1; null without monitored time. */
  ratio: number | null;
  /** Down spells that touched the day. */
  downtimes: number;
  /** Milliseconds down within the day. */
  downMs: number;
}

/** A component's history: per day, and the whole span's uptime ratio (null when never monitored). */
export interface History {
  days: DayUptime[];
  ratio: number | null;
}

/**
 * A component's history over `days` (historyDays) from its check's flips.
 * @param changes - The check's flips, any order; those before the first day give the status it started in.
 * @param current - Its stored status now (the start when no flip falls in the span).
 */
export function historyOf(changes: readonly StatusChange[], current: StoredStatus, days: readonly Day[]): History {
  const from = days[0].start;
  const to = days[days.length - 1].end;
  const periods: StatusPeriod[] = periodsFrom(startStatus(changes, current, from), changes, from, to);
  const dayUptimes = days.map((day) => {
    const { ratio } = uptimeIn(periods, day.start, day.end);
    const { count, downMs } = downtimesIn(periods, day.start, day.end);
    return { date: day.date, level: levelOf(ratio), ratio, downtimes: count, downMs };
  });
  return { days: dayUptimes, ratio: uptimeIn(periods, from, to).ratio };
}

/** The status at `from`: the newest change before it, else the oldest change's old status at or after it, else `current`. */
function startStatus(changes: readonly StatusChange[], current: StoredStatus, from: Date): StoredStatus {
  const before = changes.filter((c) => c.created < from).sort((a, b) => b.created.getTime() - a.created.getTime())[0];
  const after = changes.filter((c) => c.created >= from).sort((a, b) => a.created.getTime() - b.created.getTime())[0];
  return before?.newStatus ?? after?.oldStatus ?? current;
}

function levelOf(ratio: number | null): DayLevel {
  if (ratio === null) return 'none';
  if (ratio >= 1) return 'up';
  return ratio >= 0.99 ? 'minor' : 'major';
}
