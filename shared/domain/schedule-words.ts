/**
 * Cron and OnCalendar schedules in words, for the editor's preview: "At 03:00 every day", "Every 5 minutes",
 * "At 09:30 on Monday to Friday". Only common shapes are described; anything else (months, `L`, `#`, a cron day of
 * month and weekday both given, several OnCalendar lines, seconds) gets null, never an approximate sentence. Pure.
 */
import { parseCron } from './cron.js';
import { parseOnCalendar, type CalendarFields } from './oncalendar.js';
import { scheduleKind } from './schedule.js';

/** Weekday names, Monday first (the order the sentences list them in). */
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
/** Most times of day a sentence lists ("At 03:00, 09:00 and 15:00"). */
const MAX_TIMES = 4;

/** The matching values of one schedule, in the shape the sentences need. */
interface Matches {
  /** 0–59. */
  minutes: number[];
  /** 0–23. */
  hours: number[];
  /** 1–31; all 31 when any day matches. */
  days: number[];
  /** 0 = Monday … 6 = Sunday. */
  weekdays: number[];
  /** Whether every month matches. */
  everyMonth: boolean;
}

/** The indexes of `flags` that are set, from `from` to `to` inclusive. */
function setIn(isSet: (i: number) => boolean, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i++) if (isSet(i)) out.push(i);
  return out;
}

/** `a, b and c`. */
function listed(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The step of `values` when they are 0, s, 2s, … covering a cycle of `size` evenly (s of at least 2, dividing size); else null. */
function evenStep(values: number[], size: number): number | null {
  const step = values[1] - values[0];
  if (values.length < 2 || values[0] !== 0 || step < 2 || size % step !== 0 || values.length !== size / step) return null;
  return values.every((v, i) => v === i * step) ? step : null;
}

/** `HH:MM`. */
function clock(hour: number, minute: number): string {
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** `1st`, `2nd`, `23rd`, `11th`. */
function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** Weekdays as runs: `Monday to Friday`, `Saturday and Sunday`, `Monday, Wednesday and Friday`. */
function weekdayWords(days: number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < days.length; ) {
    let j = i;
    while (j + 1 < days.length && days[j + 1] === days[j] + 1) j++;
    if (j - i >= 2) runs.push(`${WEEKDAYS[days[i]]} to ${WEEKDAYS[days[j]]}`);
    else for (let k = i; k <= j; k++) runs.push(WEEKDAYS[days[k]]);
    i = j + 1;
  }
  return listed(runs);
}

/** Which days: `every day`, `on Monday to Friday`, `on the 1st of every month`; null for a shape not described. */
function dayWords(m: Matches): string | null {
  const everyDay = m.days.length === 31;
  const everyWeekday = m.weekdays.length === 7;
  if (everyDay && everyWeekday) return 'every day';
  if (everyDay) return `on ${weekdayWords(m.weekdays)}`;
  if (everyWeekday && m.days.length === 1) return `on the ${ordinal(m.days[0])} of every month`;
  return null;
}

/** The sentence for the matches, or null. */
function sentence(m: Matches): string | null {
  if (!m.everyMonth || m.minutes.length === 0 || m.hours.length === 0) return null;
  const days = dayWords(m);
  if (days === null) return null;
  const on = days === 'every day' ? '' : ` ${days}`;
  const everyHour = m.hours.length === 24;
  if (everyHour && m.minutes.length === 60) return `Every minute${on}`;
  const minuteStep = evenStep(m.minutes, 60);
  if (everyHour && minuteStep) return `Every ${minuteStep} minutes${on}`;
  if (m.minutes.length === 1) {
    const past = m.minutes[0] === 0 ? 'on the hour' : `at ${m.minutes[0]} minutes past the hour`;
    if (everyHour) return `Every hour ${past}${on}`;
    const hourStep = evenStep(m.hours, 24);
    if (hourStep) return `Every ${hourStep} hours ${past}${on}`;
  }
  if (m.minutes.length * m.hours.length > MAX_TIMES) return null;
  const times = m.hours.flatMap((h) => m.minutes.map((min) => clock(h, min)));
  return `At ${listed(times)} ${days}`;
}

/** A cron expression's matches; null when its day fields need both (`0 0 1 * 1` runs on the 1st or on Mondays) or it uses `L`, `W` or `#`. */
function cronMatches(expr: string): Matches | null {
  const f = parseCron(expr);
  if (!f.dayAnd || f.lastDay || f.lastWeekday || f.nthWeekdays.length > 0) return null;
  return {
    minutes: setIn((i) => f.minutes[i], 0, 59),
    hours: setIn((i) => f.hours[i], 0, 23),
    days: setIn((i) => f.days[i], 1, 31),
    // Cron counts Sunday as 0; the sentences start the week on Monday.
    weekdays: setIn((i) => f.weekdays[(i + 1) % 7], 0, 6),
    everyMonth: setIn((i) => f.months[i], 1, 12).length === 12,
  };
}

/** Whether a "next set index" table marks `i`. */
const marks = (table: Int16Array, i: number): boolean => table[i] === i;

/** An OnCalendar line's matches; null when it names years, `~` days or seconds other than :00. */
function calendarMatches(f: CalendarFields): Matches | null {
  const seconds = setIn((i) => marks(f.seconds, i), 0, 59);
  const everyYear = setIn((i) => marks(f.years, i), 0, f.years.length - 2).length === f.years.length - 1;
  if (f.anyLastDay || !everyYear || seconds.length !== 1 || seconds[0] !== 0) return null;
  return {
    minutes: setIn((i) => marks(f.minutes, i), 0, 59),
    hours: setIn((i) => marks(f.hours, i), 0, 23),
    days: setIn((i) => f.days[i] === 1, 1, 31),
    weekdays: setIn((i) => f.weekdays[i] === 1, 0, 6),
    everyMonth: setIn((i) => marks(f.months, i), 1, 12).length === 12,
  };
}

/**
 * A schedule in words, by its shape as the API reads it (a single line of five fields is cron, anything else
 * OnCalendar): `At 03:00 every day`, `Every 5 minutes`, `At 09:30 on Monday to Friday`.
 *
 * @param schedule - A cron or OnCalendar expression; an invalid one is not described.
 * @returns The sentence, or null when the shape is not one described here (never a wrong sentence). Times are the
 *   schedule's wall times in the check's zone, or in the zone an OnCalendar line names (then given in brackets).
 */
export function describeSchedule(schedule: string): string | null {
  try {
    if (scheduleKind(schedule) === 'cron') {
      const m = cronMatches(schedule);
      return m && sentence(m);
    }
    const lines = parseOnCalendar(schedule);
    if (lines.length !== 1) return null;
    const m = calendarMatches(lines[0].fields);
    const words = m && sentence(m);
    return words && lines[0].tz ? `${words} (${lines[0].tz})` : words;
  } catch {
    return null;
  }
}
