/**
 * One component of an OnCalendar expression (weekdays, year, month, day, hour, minute or second) into its values, as
 * the reference's `Field.parse` reads it. Pure. The expression's shape: oncalendar.ts.
 */

/** First and last year an OnCalendar expression can match (the reference stops before 2200, as systemd does). */
export const FIRST_YEAR = 1970;
/** Years from this one on never match. */
export const END_YEAR = 2200;

/** Thrown for an expression the reference rejects; the message names the part, as the reference's does. */
export class OnCalendarSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OnCalendarSyntaxError';
  }
}

/** A component's name (in messages) and value range. */
export interface FieldDef {
  name: string;
  min: number;
  max: number;
}

/** The components, in the reference's order; weekdays Monday = 0. */
export const WEEKDAY: FieldDef = { name: 'day-of-week', min: 0, max: 6 };
export const YEAR: FieldDef = { name: 'year', min: FIRST_YEAR, max: END_YEAR - 1 };
export const MONTH: FieldDef = { name: 'month', min: 1, max: 12 };
export const DAY: FieldDef = { name: 'day-of-month', min: 1, max: 31 };
export const HOUR: FieldDef = { name: 'hour', min: 0, max: 23 };
export const MINUTE: FieldDef = { name: 'minute', min: 0, max: 59 };
export const SECOND: FieldDef = { name: 'second', min: 0, max: 59 };

const DAY_NAMES = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];

const DIGITS = /^[0-9]+$/;

function bad(field: FieldDef): OnCalendarSyntaxError {
  return new OnCalendarSyntaxError(`Bad ${field.name}`);
}

function digits(field: FieldDef, s: string): number {
  if (!DIGITS.test(s)) throw bad(field);
  return Number(s);
}

/** One value: a weekday name (full or 3 letters, any case), else digits in range; years 0–69 and 70–99 are 20xx/19xx. */
function value(field: FieldDef, s: string): number {
  if (field === WEEKDAY) {
    const upper = s.toUpperCase();
    const at = DAY_NAMES.findIndex((name) => name === upper || name.slice(0, 3) === upper);
    if (at < 0) throw bad(field);
    return at;
  }
  let v = digits(field, s);
  if (field === YEAR && v < 70) v += 2000;
  if (field === YEAR && v < 100) v += 1900;
  if (v < field.min || v > field.max) throw bad(field);
  return v;
}

/** The integers from `from` to `to`, both included. */
export function span(from: number, to: number): number[] {
  const out: number[] = [];
  for (let v = from; v <= to; v++) out.push(v);
  return out;
}

/**
 * The values of one component, in the reference's order of tests: `~` (days counted from the month's end, as negative
 * values), `*`, weekday `-` ranges and trailing commas, lists, `/` repetitions, `..` ranges, single values.
 */
export function parseTerm(field: FieldDef, s: string, reverse = false): number[] {
  if (field === DAY && s.startsWith('~')) return parseTerm(field, s.slice(1), true);
  if (field !== WEEKDAY && s === '*') return span(field.min, field.max);
  if (s.includes('*')) throw bad(field);
  if (field === WEEKDAY && s.endsWith(',')) return parseTerm(field, s.slice(0, -1));
  if (field === WEEKDAY && s.includes('-')) return parseTerm(field, s.replaceAll('-', '..'));
  if (s.includes(',')) return s.split(',').flatMap((term) => parseTerm(field, term, reverse));
  if (s.includes('/') && field !== WEEKDAY) {
    const at = s.indexOf('/');
    const step = digits(field, s.slice(at + 1));
    if (step === 0) throw bad(field);
    const items = [...new Set(parseTerm(field, s.slice(0, at), reverse))].sort((a, b) => a - b);
    // As in the reference, one value repeats up to the field's maximum (or to the month's end after `~`).
    const values = items.length === 1 ? span(items[0], reverse ? 0 : field.max) : items;
    return values.filter((_, i) => i % step === 0);
  }
  if (s.includes('..')) {
    const at = s.indexOf('..');
    const from = value(field, s.slice(0, at));
    const to = value(field, s.slice(at + 2));
    if (to < from) throw bad(field);
    return reverse ? span(-to, -from) : span(from, to);
  }
  const v = value(field, s);
  if (reverse && v > 28) throw bad(field);
  return [reverse ? -v : v];
}

