/**
 * Finding OnCalendar occurrences (docs/api.md, "OnCalendar schedules"), as the reference's `oncalendar` package does: match the
 * wall clock of the line's zone to the second, skip wall times a spring-forward gap removes, take a repeated wall
 * time at its first pass, union the lines. Pure. "Wall ms" as in cron-search.ts.
 */
import { END_YEAR, FIRST_YEAR, type CalendarFields, type CalendarLine } from './oncalendar.js';
import { firstInstantOf, offsetAt, repeatEndWall, zoneSegments, type ZoneSegments } from './tz.js';

const SECOND_MS = 1000;
const DAY_MS = 86_400_000;
/** Days of each month (1–12) in a common year. */
const MONTH_DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Arithmetic, not a Date: this runs for every month searched. */
function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : MONTH_DAYS[month];
}

/** The first matching day of the month in [`from`, `last`], or -1; weekdays Monday = 0. */
function firstDay(cal: CalendarFields, year: number, month: number, from: number, last: number): number {
  if (!cal.anyLastDay) {
    // Without `~` days only listed ones match: skip to the first, or past a month too short for any (`*-02-30`).
    from = cal.dayTable[from];
    if (from < 0 || from > last) return -1;
  }
  // 1970-01-01 was a Thursday (3 with Monday = 0).
  let weekday = (Math.floor(Date.UTC(year, month - 1, from) / DAY_MS) + 3) % 7;
  for (let day = from; day <= last; day++) {
    if (cal.weekdays[weekday] && (cal.days[day] || cal.lastDays[last - day + 1])) return day;
    weekday = weekday === 6 ? 0 : weekday + 1;
  }
  return -1;
}

/** Seconds from midnight of the first matching time of day at or after hour:minute:second, or -1. */
function firstTime(cal: CalendarFields, hour: number, minute: number, second: number): number {
  for (let h = cal.hours[hour]; h >= 0; h = cal.hours[h + 1]) {
    const fromMinute = h === hour ? minute : 0;
    for (let m = cal.minutes[fromMinute]; m >= 0; m = cal.minutes[m + 1]) {
      const s = cal.seconds[h === hour && m === minute ? second : 0];
      if (s >= 0) return h * 3600 + m * 60 + s;
    }
  }
  return -1;
}

/**
 * The first wall second (wall ms) at or after `fromWallMs` (a whole second) matching every field, or null when none
 * is before the year 2200. Skips whole years, months and days, so any expression answers in a few thousand steps.
 */
function nextWallSecond(cal: CalendarFields, fromWallMs: number): number | null {
  const from = new Date(Math.max(fromWallMs, Date.UTC(FIRST_YEAR, 0, 1)));
  let [year, month, day] = [from.getUTCFullYear(), from.getUTCMonth() + 1, from.getUTCDate()];
  let timeOfDay = (fromWallMs - Date.UTC(year, month - 1, day)) / SECOND_MS;
  if (timeOfDay < 0) timeOfDay = 0;
  while (year < END_YEAR) {
    const y = cal.years[year - FIRST_YEAR];
    if (y < 0) return null;
    const m = cal.months[month];
    if (y + FIRST_YEAR !== year || m < 0) {
      [year, month, day, timeOfDay] = [y + FIRST_YEAR === year ? year + 1 : y + FIRST_YEAR, 1, 1, 0];
      continue;
    }
    if (m !== month) [month, day, timeOfDay] = [m, 1, 0];
    const last = daysInMonth(year, month);
    const d = firstDay(cal, year, month, day, last);
    if (d !== day) timeOfDay = 0;
    const t = d < 0 ? -1 : firstTime(cal, Math.floor(timeOfDay / 3600), Math.floor(timeOfDay / 60) % 60, timeOfDay % 60);
    if (t >= 0) return Date.UTC(year, month - 1, d) + t * SECOND_MS;
    // Nothing left today (or this month): go on from the next day, which may be in the next month.
    [day, timeOfDay] = [d < 0 ? last + 1 : d + 1, 0];
    if (day > last) [month, day] = [month + 1, 1];
    if (month > 12) [year, month] = [year + 1, 1];
  }
  return null;
}

/** The first occurrence of one line strictly after `afterMs` in `zone`, or null (none before 2200). */
function nextInZone(cal: CalendarFields, zone: ZoneSegments, afterMs: number): number | null {
  const afterSecondMs = Math.floor(afterMs / SECOND_MS) * SECOND_MS;
  let wallMs = afterSecondMs + offsetAt(zone, afterSecondMs).offsetMs + SECOND_MS;
  // In the second pass of a repeated hour, the wall times still to come in it count at their first pass, before
  // `afterMs` (the reference answers such a moment; docs/api.md, deviations): go on after the repetition.
  wallMs = Math.max(wallMs, repeatEndWall(zone, afterSecondMs) ?? wallMs);
  for (;;) {
    const match = nextWallSecond(cal, wallMs);
    if (match === null) return null;
    const at = firstInstantOf(zone, match);
    if ('gapEndWallMs' in at) wallMs = at.gapEndWallMs;
    else if (at.atMs > afterMs) return at.atMs;
    else wallMs = match + SECOND_MS;
  }
}

/**
 * The first occurrence of any line strictly after `after`: each line in its own zone suffix or else in `tz`.
 * @throws Error if `tz` is unknown to moment-timezone (the API validates it first).
 */
export function nextOnCalendar(lines: readonly CalendarLine[], tz: string, after: Date): Date | null {
  let best: number | null = null;
  for (const line of lines) {
    const found = nextInZone(line.fields, zoneSegments(line.tz ?? tz), after.getTime());
    if (found !== null && (best === null || found < best)) best = found;
  }
  return best === null ? null : new Date(best);
}
