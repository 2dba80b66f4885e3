/**
 * Schedule maths: when the next ping is due (docs/checks.md, "Deadlines", "Cron in detail"; docs/api.md, "OnCalendar schedules") and whether a `schedule` is
 * acceptable (docs/api-reference.md, "Validation"). No I/O, but parsed expressions are cached. Cron follows the reference's cronsim, OnCalendar its
 * `oncalendar` package.
 */
import { LRUCache } from 'lru-cache';
import { CronSyntaxError, parseCron, cronParts, type CronFields } from './cron.js';
import { MINUTE_MS, nextWallMatch } from './cron-search.js';
import { OnCalendarSyntaxError, parseOnCalendar, type CalendarLine } from './oncalendar.js';
import { nextOnCalendar } from './oncalendar-search.js';
import { offsetAt, wallToInstant, zoneSegments, type ZoneSegments } from './tz.js';

export { canonicalTz } from './tz.js';
export { CronSyntaxError } from './cron.js';
export { OnCalendarSyntaxError } from './oncalendar.js';

const MS_PER_SECOND = 1000;

/** How far ahead a cron match is searched, in years of the wall clock (docs/checks.md, "Cron in detail"). */
const SEARCH_YEARS = 50;

/** The moment from which the reference tests a new expression for any match (docs/checks.md, "Cron in detail"). */
const VALIDITY_FROM = new Date('2000-01-01T00:00:00Z');

/** How a check's next ping is found: a period, a cron expression or an OnCalendar expression (docs/api.md, "OnCalendar schedules"). */
export type ScheduleKind = 'simple' | 'cron' | 'oncalendar';

/** A simple check's period, or a cron or OnCalendar check's expression and zone. */
export type ScheduleSpec =
  | { kind: 'simple'; timeout: number }
  | { kind: 'cron' | 'oncalendar'; schedule: string; tz: string };

/**
 * When the next ping is due after `lastPing` (the regular grace start, docs/checks.md, "Deadlines"): `lastPing + timeout` seconds, the
 * first cron match strictly after it in `tz` (docs/checks.md, "Cron in detail"; null when none within 50 years), or the first
 * OnCalendar occurrence strictly after it (null when none before 2200: never late, docs/api.md, "OnCalendar schedules").
 * @throws CronSyntaxError or OnCalendarSyntaxError if `schedule` does not parse, Error if `tz` is unknown (the API
 *   validates both first).
 */
export function nextPingAt(spec: ScheduleSpec, lastPing: Date): Date | null {
  if (spec.kind === 'simple') {
    return new Date(lastPing.getTime() + spec.timeout * MS_PER_SECOND);
  }
  if (spec.kind === 'oncalendar') return nextOnCalendar(parsedCalendar(spec.schedule), spec.tz, lastPing);
  return nextCronMatch(parsedCron(spec.schedule), spec.tz, lastPing);
}

/** Valid expressions already parsed, frozen: every ping and missed deadline recomputes a cron check's deadline. */
const parsedExpressions = new LRUCache<string, Readonly<CronFields>>({ max: 10_000 });
/** The same for OnCalendar schedules. */
const parsedCalendars = new LRUCache<string, readonly CalendarLine[]>({ max: 10_000 });

/** {@link parseOnCalendar} through {@link parsedCalendars}; throws as parseOnCalendar does. */
function parsedCalendar(schedule: string): readonly CalendarLine[] {
  let lines = parsedCalendars.get(schedule);
  if (!lines) parsedCalendars.set(schedule, (lines = Object.freeze(parseOnCalendar(schedule))));
  return lines;
}

/** {@link parseCron} through {@link parsedExpressions}; throws as parseCron does. */
function parsedCron(expr: string): Readonly<CronFields> {
  let fields = parsedExpressions.get(expr);
  if (!fields) parsedExpressions.set(expr, (fields = Object.freeze(parseCron(expr))));
  return fields;
}

/**
 * The first match of a parsed expression strictly after `after` in `tz`, or null when none is within 50 years.
 * @throws Error if `tz` is unknown to moment-timezone.
 */
export function nextCronMatch(cron: CronFields, tz: string, after: Date): Date | null {
  const zone = zoneSegments(tz);
  const afterMs = after.getTime();
  const fromWallMs = floorMinute(afterMs + offsetAt(zone, afterMs).offsetMs) + MINUTE_MS;
  const endWallMs = Date.UTC(new Date(fromWallMs).getUTCFullYear() + SEARCH_YEARS + 1, 0, 1);
  const found = cron.wallClock
    ? nextOnWallClock(cron, zone, afterMs, fromWallMs, endWallMs)
    : nextInRealTime(cron, zone, fromWallMs, endWallMs, afterMs);
  return found === null ? null : new Date(found);
}

function floorMinute(ms: number): number {
  return Math.floor(ms / MINUTE_MS) * MINUTE_MS;
}

/**
 * Rule 7 (minute and hour both specific): walk the wall clock. A match in a gap fires when the gap ends, a repeated
 * wall time only at its first occurrence (skipped if that is not after `afterMs`).
 */
function nextOnWallClock(
  cron: CronFields,
  zone: ZoneSegments,
  afterMs: number,
  fromWallMs: number,
  endWallMs: number,
): number | null {
  for (let wallMs = fromWallMs; ; ) {
    const match = nextWallMatch(cron, wallMs, endWallMs);
    if (match === null) return null;
    const atMs = wallToInstant(zone, match);
    if (atMs > afterMs) return atMs;
    wallMs = match + MINUTE_MS;
  }
}

/**
 * Rule 8 (minute or hour starts with `*`): walk real time, one stretch of constant offset at a time; skipped wall
 * times never fire, repeated ones fire twice. Every real minute counts (cronsim differs: docs/api.md).
 * `match` is kept across offset changes, so a rare expression is not searched again from each one.
 */
function nextInRealTime(
  cron: CronFields,
  zone: ZoneSegments,
  fromWallMs: number,
  endWallMs: number,
  afterMs: number,
): number | null {
  let atMs = afterMs;
  let searchedFromMs = fromWallMs;
  let match = nextWallMatch(cron, fromWallMs, endWallMs);
  while (match !== null) {
    const { offsetMs, untilMs } = offsetAt(zone, atMs);
    if (match - offsetMs < untilMs) return match - offsetMs;
    // No match before the offset changes: go on from the change.
    atMs = untilMs;
    const wallMs = Math.ceil((untilMs + offsetAt(zone, untilMs).offsetMs) / MINUTE_MS) * MINUTE_MS;
    if (wallMs > match) {
      match = nextWallMatch(cron, wallMs, endWallMs);
    } else if (wallMs < searchedFromMs) {
      // The clock went back: wall times before the last search start occur again.
      match = nextWallMatch(cron, wallMs, searchedFromMs) ?? match;
    }
    searchedFromMs = wallMs;
  }
  return null;
}

/** Whether `expr` is cron-shaped: one line of exactly 5 whitespace-separated fields (docs/api-reference.md, "Validation"); else OnCalendar. */
export function hasCronShape(expr: string): boolean {
  return !expr.includes('\n') && cronParts(expr).length === 5;
}

/** The kind a `schedule` gives its check (docs/api-reference.md, "Validation"; docs/api.md, "OnCalendar schedules"). */
export function scheduleKind(expr: string): 'cron' | 'oncalendar' {
  return hasCronShape(expr) ? 'cron' : 'oncalendar';
}

/**
 * Whether `expr` is an acceptable schedule (docs/api-reference.md, "Validation"): a valid cron expression when cron-shaped, else a valid
 * OnCalendar one. Length limits are the caller's (docs/api-reference.md, "Validation": 100 code points, checked first).
 */
export function isValidSchedule(expr: string): boolean {
  return hasCronShape(expr) ? isValidCron(expr) : isValidOnCalendar(expr);
}

/**
 * Whether `expr` is a valid OnCalendar schedule as the reference tests it: every line parses, and some occurrence
 * follows 2000-01-01 UTC (one that has passed since is accepted and never late, docs/api.md, "OnCalendar schedules").
 */
export function isValidOnCalendar(expr: string): boolean {
  try {
    return nextOnCalendar(parseOnCalendar(expr), 'UTC', VALIDITY_FROM) !== null;
  } catch (err) {
    if (err instanceof OnCalendarSyntaxError) return false;
    throw err;
  }
}

/**
 * Whether `expr` is a valid cron expression (docs/checks.md, "Cron in detail"; docs/api-reference.md, "Validation"): cron-shaped, every token known and in
 * range, and matching at least once within 50 years of 2000-01-01 UTC, as the reference tests it.
 */
export function isValidCron(expr: string): boolean {
  if (!hasCronShape(expr)) return false;
  try {
    return nextCronMatch(parseCron(expr), 'UTC', VALIDITY_FROM) !== null;
  } catch (err) {
    if (err instanceof CronSyntaxError) return false;
    throw err;
  }
}
