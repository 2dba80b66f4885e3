/**
 * Cron expression parsing (docs/checks.md, "Cron in detail"), following the reference's cronsim parser token by token.
 * Pure. Why not cron-parser: docs/api.md.
 */

/** The "last" marker in a day-of-week `nL` item. */
export const LAST = 'L';

/** A day-of-week item naming an occurrence, `n#k` (k = 1–5) or `nL`; weekday 0 = Sunday (7 folded to 0). */
export interface NthWeekday {
  weekday: number;
  nth: number | typeof LAST;
}

/** A parsed 5-field cron expression; the flag arrays are indexed by field value (Sunday = 0). */
export interface CronFields {
  minutes: boolean[];
  hours: boolean[];
  days: boolean[];
  /** Day-of-month `L`. */
  lastDay: boolean;
  /** Day-of-month `LW`: the last Monday–Friday of the month. */
  lastWeekday: boolean;
  months: boolean[];
  weekdays: boolean[];
  nthWeekdays: NthWeekday[];
  /** Rule 4: the day-of-month or day-of-week field starts with `*`, so both must match. */
  dayAnd: boolean;
  /** Rule 7: neither the minute nor the hour field starts with `*`: match on the wall clock. */
  wallClock: boolean;
}

/** Thrown for an expression the reference rejects; the message names the field. */
export class CronSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CronSyntaxError';
  }
}

/** Value range and symbolic names of one field; `namesFrom` is the value of names[0]. */
interface FieldDef {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
  namesFrom?: number;
}

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;

const MINUTE: FieldDef = { name: 'minute', min: 0, max: 59 };
const HOUR: FieldDef = { name: 'hour', min: 0, max: 23 };
const DAY: FieldDef = { name: 'day-of-month', min: 1, max: 31 };
const MONTH: FieldDef = { name: 'month', min: 1, max: 12, names: MONTH_NAMES, namesFrom: 1 };
const WEEKDAY: FieldDef = { name: 'day-of-week', min: 0, max: 7, names: DAY_NAMES, namesFrom: 0 };

/** The most days each month can have (February 29 counts), index 1–12. */
const MAX_DAYS_IN_MONTH = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Day-of-month markers inside a value list, outside the 1–31 range. */
const DAY_LAST = -1;
const DAY_LAST_WEEKDAY = -2;

const DIGITS = /^[0-9]+$/;

function bad(field: FieldDef): CronSyntaxError {
  return new CronSyntaxError(`Bad ${field.name}`);
}

/** A plain ASCII number (no sign, no spaces), as the reference's `_int`. */
function parseDigits(field: FieldDef, s: string): number {
  if (!DIGITS.test(s)) throw bad(field);
  return Number.parseInt(s, 10);
}

/** A number in the field's range, or a month/day name where the field has them. */
function parseValue(field: FieldDef, s: string): number {
  const named = field.names?.indexOf(s) ?? -1;
  if (named >= 0) return named + (field.namesFrom ?? 0);
  const value = parseDigits(field, s);
  if (value < field.min || value > field.max) throw bad(field);
  return value;
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let v = from; v <= to; v++) out.push(v);
  return out;
}

/** Values of one comma-free term (the syntax in docs/checks.md, "Cron in detail"); day-of-month `L`/`LW` come back as markers, `nL`/`n#k` go to `nth`. */
function parseTerm(field: FieldDef, s: string, nth: NthWeekday[]): number[] {
  if (s === '*') return range(field.min, field.max);
  if (field === WEEKDAY && s.includes('L')) {
    // Only digits may precede L, so `FRIL` is rejected as by the reference.
    const weekday = s.slice(0, -1);
    if (!DIGITS.test(weekday)) throw bad(field);
    nth.push({ weekday: parseValue(field, weekday) % 7, nth: LAST });
    return [];
  }
  if (field === WEEKDAY && s.includes('#')) {
    const [term, k] = splitOnce(s, '#');
    const occurrence = parseDigits(field, k);
    if (occurrence < 1 || occurrence > 5) throw bad(field);
    nth.push({ weekday: parseValue(field, term) % 7, nth: occurrence });
    return [];
  }
  if (s.includes('/')) {
    const [term, stepText] = splitOnce(s, '/');
    const step = parseDigits(field, stepText);
    if (step === 0) throw bad(field);
    const items = parseTerm(field, term, nth);
    if (items.length === 1 && items[0] < 0) return items;
    // As in cronsim, a one-value term runs to the field maximum (`a/n`, also `5-5/n`); `*` and `a-b` keep every n-th.
    const values = items.length === 1 ? range(items[0], field.max) : items;
    return values.filter((_, i) => i % step === 0);
  }
  if (s.includes('-')) {
    const [fromText, toText] = splitOnce(s, '-');
    const from = parseValue(field, fromText);
    const to = parseValue(field, toText);
    if (to < from) throw bad(field);
    return range(from, to);
  }
  if (field === DAY && s === 'LW') return [DAY_LAST_WEEKDAY];
  if (field === DAY && s === 'L') return [DAY_LAST];
  return [parseValue(field, s)];
}

function splitOnce(s: string, separator: string): [string, string] {
  const at = s.indexOf(separator);
  return [s.slice(0, at), s.slice(at + 1)];
}

/** Parses one field (a comma list) into its values. */
function parseField(field: FieldDef, s: string, nth: NthWeekday[] = []): number[] {
  return s.split(',').flatMap((term) => parseTerm(field, term, nth));
}

function flags(values: number[], size: number): boolean[] {
  const out = new Array<boolean>(size).fill(false);
  for (const v of values) if (v >= 0) out[v] = true;
  return out;
}

/** A schedule's fields, upper-cased (names, `L` and `W` are case-insensitive) and split on whitespace; [] when blank. */
export function cronParts(expr: string): string[] {
  const trimmed = expr.trim();
  return trimmed === '' ? [] : trimmed.toUpperCase().split(/\s+/);
}

/**
 * Parses a 5-field cron expression (docs/checks.md, "Cron in detail"); whether it ever matches is `isValidCron`'s job.
 * @throws CronSyntaxError on a wrong field count, an unknown token, an out-of-range value, a descending range, a zero
 *   step, or a day-of-month larger than every listed month allows (`0 0 30 2 *`).
 */
export function parseCron(expr: string): CronFields {
  const parts = cronParts(expr);
  if (parts.length !== 5) throw new CronSyntaxError('Wrong number of fields');
  const [minute, hour, day, month, weekday] = parts;
  const days = parseField(DAY, day);
  const months = parseField(MONTH, month);
  const nthWeekdays: NthWeekday[] = [];
  const weekdayValues = parseField(WEEKDAY, weekday, nthWeekdays).map((v) => v % 7);
  const smallestDay = Math.min(...days);
  if (smallestDay > 29 && smallestDay > Math.max(...months.map((m) => MAX_DAYS_IN_MONTH[m]))) throw bad(DAY);
  return {
    minutes: flags(parseField(MINUTE, minute), 60),
    hours: flags(parseField(HOUR, hour), 24),
    days: flags(days, 32),
    lastDay: days.includes(DAY_LAST),
    lastWeekday: days.includes(DAY_LAST_WEEKDAY),
    months: flags(months, 13),
    weekdays: flags(weekdayValues, 7),
    nthWeekdays,
    dayAnd: day.startsWith('*') || weekday.startsWith('*'),
    wallClock: !minute.startsWith('*') && !hour.startsWith('*'),
  };
}
