/**
 * Finding cron matches on a wall clock (docs/checks.md, "Cron in detail"). Pure. "Wall ms": a zone's local date and
 * time written as the epoch milliseconds the same date and time would have in UTC.
 */
import { LAST, type CronFields } from './cron.js';

/** Milliseconds in one minute. */
export const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Days in `month` (1–12) of `year`, leap years included. */
function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Day-of-month of the last Monday–Friday of the month. */
function lastWeekdayOfMonth(year: number, month: number): number {
  const last = daysInMonth(year, month);
  const weekday = new Date(Date.UTC(year, month - 1, last)).getUTCDay();
  if (weekday === 0) return last - 2;
  if (weekday === 6) return last - 1;
  return last;
}

function matchesDayOfMonth(cron: CronFields, year: number, month: number, day: number): boolean {
  if (cron.days[day]) return true;
  if (cron.lastDay && day === daysInMonth(year, month)) return true;
  return cron.lastWeekday && day === lastWeekdayOfMonth(year, month);
}

function matchesDayOfWeek(cron: CronFields, year: number, month: number, day: number, weekday: number): boolean {
  if (cron.weekdays[weekday]) return true;
  const occurrence = Math.ceil(day / 7);
  const isLast = day + 7 > daysInMonth(year, month);
  return cron.nthWeekdays.some(
    (item) => item.weekday === weekday && (item.nth === LAST ? isLast : item.nth === occurrence),
  );
}

/** Whether a day (`month` 1–12) matches day-of-month and day-of-week: both if one starts with `*`, else one (as Vixie cron). */
export function matchesDay(cron: CronFields, year: number, month: number, day: number): boolean {
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  const dom = matchesDayOfMonth(cron, year, month, day);
  const dow = matchesDayOfWeek(cron, year, month, day, weekday);
  return cron.dayAnd ? dom && dow : dom || dow;
}

/** First index ≥ `from` whose flag is set, or -1. */
function firstSet(flags: boolean[], from: number): number {
  for (let i = from; i < flags.length; i++) if (flags[i]) return i;
  return -1;
}

/**
 * The first wall minute (wall ms) in [`fromWallMs`, `endWallMs`) matching every field, or null; `fromWallMs` is on a
 * whole minute. Skips months and days that cannot match, so decades take tens of thousands of steps at most.
 */
export function nextWallMatch(cron: CronFields, fromWallMs: number, endWallMs: number): number | null {
  let at = new Date(fromWallMs);
  while (at.getTime() < endWallMs) {
    const year = at.getUTCFullYear();
    const month = at.getUTCMonth() + 1;
    const day = at.getUTCDate();
    const dayStart = Date.UTC(year, month - 1, day);
    if (!cron.months[month]) {
      at = new Date(Date.UTC(year, month, 1));
      continue;
    }
    if (!matchesDay(cron, year, month, day)) {
      at = new Date(dayStart + DAY_MS);
      continue;
    }
    const found = firstMinuteOfDay(cron, at.getUTCHours(), at.getUTCMinutes());
    if (found === null) {
      at = new Date(dayStart + DAY_MS);
      continue;
    }
    const result = dayStart + found;
    return result < endWallMs ? result : null;
  }
  return null;
}

/** Offset in ms from midnight of the first matching hour:minute at or after hour:minute, or null. */
function firstMinuteOfDay(cron: CronFields, hour: number, minute: number): number | null {
  for (let h = firstSet(cron.hours, hour); h >= 0; h = firstSet(cron.hours, h + 1)) {
    const m = firstSet(cron.minutes, h === hour ? minute : 0);
    if (m >= 0) return h * HOUR_MS + m * MINUTE_MS;
  }
  return null;
}
