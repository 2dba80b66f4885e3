/**
 * OnCalendar expression parsing (docs/api.md, "OnCalendar schedules"): systemd.time(7) calendar events as the reference's
 * `oncalendar` package reads them, line by line. Pure. Semantics and deviations: docs/api.md, "OnCalendar schedules".
 */
import { isZoneName } from './tz.js';
import { DAY, END_YEAR, FIRST_YEAR, HOUR, MINUTE, MONTH, OnCalendarSyntaxError, SECOND, WEEKDAY, YEAR, parseTerm, span } from './oncalendar-terms.js';

export { END_YEAR, FIRST_YEAR, OnCalendarSyntaxError } from './oncalendar-terms.js';

/**
 * One parsed expression, as "next set index" tables: `t[i]` is the smallest matching value ≥ i, -1 when none (the
 * index past the field's maximum always holds -1). `years` is indexed by year − 1970.
 */
export interface CalendarFields {
  /** Matching weekdays, Monday = 0 … Sunday = 6. */
  weekdays: Uint8Array;
  years: Int16Array;
  months: Int16Array;
  /** Matching days of the month, 1–31. */
  days: Uint8Array;
  /** The same days as a "next set index" table, to skip a month at once when no `~` day is given. */
  dayTable: Int16Array;
  /** `~k`: the k-th day counted from the month's end matches (1 = the last day). */
  lastDays: Uint8Array;
  anyLastDay: boolean;
  hours: Int16Array;
  minutes: Int16Array;
  seconds: Int16Array;
}

/** One line of a schedule: its fields and the zone it names (null: the check's `tz`). */
export interface CalendarLine {
  fields: CalendarFields;
  tz: string | null;
}

/** The shorthands and what they stand for (the reference's SPECIALS). */
const SHORTHANDS: ReadonlyMap<string, string> = new Map([
  ['minutely', '*-*-* *:*:00'],
  ['hourly', '*-*-* *:00:00'],
  ['daily', '*-*-* 00:00:00'],
  ['monthly', '*-*-01 00:00:00'],
  ['weekly', 'Mon *-*-* 00:00:00'],
  ['yearly', '*-01-01 00:00:00'],
  ['annually', '*-01-01 00:00:00'],
  ['quarterly', '*-01,04,07,10-01 00:00:00'],
  ['semiannually', '*-01,07-01 00:00:00'],
]);

/** Python's `str.split()`/`strip()` whitespace, which the reference splits and trims on. */
const SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const SPACES = new RegExp(`[${SPACE}]+`);
const TRIM = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, 'g');
const LAST_TOKEN = new RegExp(`^([^]*?)[${SPACE}]+([^${SPACE}]+)$`);

/** Python's `str.strip()`. */
function pyStrip(s: string): string {
  return s.replace(TRIM, '');
}

/** "Next set index" table over [0, max + 1] of the values in [0, max]; negative values are left out. */
function nextTable(values: number[], max: number): Int16Array {
  const table = new Int16Array(max + 2).fill(-1);
  for (const v of values) if (v >= 0 && v <= max) table[v] = v;
  for (let i = max - 1; i >= 0; i--) if (table[i] < 0) table[i] = table[i + 1];
  return table;
}

/** 1 at each value in [0, size), else 0. */
function flags(values: number[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (const v of values) if (v >= 0 && v < size) out[v] = 1;
  return out;
}

/**
 * Parses one expression without a zone: `[weekdays] [[year-]month-day] [hour:minute[:second]]` or a shorthand.
 * @throws OnCalendarSyntaxError on a wrong number of parts, a bad date or time shape, or a bad component.
 */
function parseCalendarFields(expression: string): CalendarFields {
  const text = SHORTHANDS.get(expression.toLowerCase()) ?? expression;
  const parts = text.replaceAll('~', '-~').split(SPACES).filter(Boolean);
  if (parts.length === 0) throw new OnCalendarSyntaxError('Wrong number of fields');
  let time = ['0', '0', '0'];
  if (parts[parts.length - 1].includes(':')) {
    time = parts.pop()!.split(':');
    if (time.length !== 2 && time.length !== 3) throw new OnCalendarSyntaxError('Bad time');
    if (time.length === 2) time.push('0');
  }
  const hours = parseTerm(HOUR, time[0]);
  const minutes = parseTerm(MINUTE, time[1]);
  const seconds = parseTerm(SECOND, time[2]);
  let date = ['*', '*', '*'];
  const last = parts[parts.length - 1];
  if (last !== undefined && last.includes('-') && '0123456789*'.includes(last[0])) {
    date = parts.pop()!.split('-');
    if (date.length !== 2 && date.length !== 3) throw new OnCalendarSyntaxError('Bad date');
    if (date.length === 2) date.unshift('*');
  }
  const [years, months, days] = [parseTerm(YEAR, date[0]), parseTerm(MONTH, date[1]), parseTerm(DAY, date[2])];
  const weekdays = parts.length > 0 ? parseTerm(WEEKDAY, parts.shift()!) : span(0, 6);
  if (parts.length > 0) throw new OnCalendarSyntaxError('Wrong number of fields');
  return {
    weekdays: flags(weekdays, 7),
    years: nextTable(years.map((y) => y - FIRST_YEAR), END_YEAR - 1 - FIRST_YEAR),
    months: nextTable(months, MONTH.max),
    days: flags(days, 32),
    dayTable: nextTable(days, DAY.max),
    lastDays: flags(days.map((d) => -d), 32),
    anyLastDay: days.some((d) => d < 0),
    hours: nextTable(hours, HOUR.max),
    minutes: nextTable(minutes, MINUTE.max),
    seconds: nextTable(seconds, SECOND.max),
  };
}

/**
 * Parses a schedule: one expression per line (docs/api.md, "OnCalendar schedules"), each optionally ending in a time zone name after a space
 * (the reference's TzIterator: only when the line holds a space, and the name is one moment-timezone knows).
 * @throws OnCalendarSyntaxError when any line does not parse (an empty line included).
 */
export function parseOnCalendar(schedule: string): CalendarLine[] {
  return pyStrip(schedule)
    .split('\n')
    .map((raw) => {
      const line = pyStrip(raw);
      const split = line.includes(' ') ? LAST_TOKEN.exec(line) : null;
      if (split && !'0123456789*'.includes(split[2][0]) && isZoneName(split[2])) {
        return { fields: parseCalendarFields(split[1]), tz: split[2] };
      }
      return { fields: parseCalendarFields(line), tz: null };
    });
}
