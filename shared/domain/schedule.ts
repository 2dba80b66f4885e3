/**
 * Schedule maths: when the next ping is due (behaviour.md §2.2, §2.4).
 * Pure: imports only cron-parser and moment-timezone.
 */
import { CronExpressionParser } from 'cron-parser';
import moment from 'moment-timezone';

/** Milliseconds in one second. */
const MS_PER_SECOND = 1000;

/** A simple check's period or a cron check's expression and zone. */
export type ScheduleSpec =
  | { kind: 'simple'; timeout: number }
  | { kind: 'cron'; schedule: string; tz: string };

/**
 * When the next ping is due after `lastPing` (the regular grace start).
 *
 * @param spec - `timeout` in seconds (simple) or `schedule` + `tz` (cron).
 * @param lastPing - Last success or fail signal.
 * @returns For simple checks `lastPing + timeout`; for cron checks the first
 *   match strictly after `lastPing` in `tz`, as a UTC moment; null when the
 *   expression has no further match.
 * @throws Error if `schedule` does not parse (the API validates it first).
 */
export function nextPingAt(spec: ScheduleSpec, lastPing: Date): Date | null {
  if (spec.kind === 'simple') {
    return new Date(lastPing.getTime() + spec.timeout * MS_PER_SECOND);
  }
  const it = CronExpressionParser.parse(spec.schedule, { currentDate: lastPing, tz: spec.tz });
  return it.hasNext() ? it.next().toDate() : null;
}

/**
 * Whether `expr` is a valid 5-field cron expression (behaviour.md §2.4 rule 5, §3.7 rule 3).
 *
 * @param expr - The `schedule` string as sent.
 */
export function isValidCron(expr: string): boolean {
  const fields = expr.trim().split(/\s+/);
  if (expr.includes('\n') || fields.length !== 5) return false;
  try {
    const it = CronExpressionParser.parse(expr, { currentDate: new Date('2000-01-01T00:00:00Z'), tz: 'UTC' });
    return it.hasNext();
  } catch {
    return false;
  }
}

/**
 * The canonical IANA name for `tz` (behaviour.md §2.4 rule 9), or null when unknown.
 *
 * @param tz - A zone name as sent, possibly a legacy alias such as `US/Eastern`.
 */
export function canonicalTz(tz: string): string | null {
  const zone = moment.tz.zone(tz);
  return zone ? zone.name : null;
}
