/**
 * Times and periods as the web app shows them: in the viewer's time zone (the profile's `tz`, UTC until set),
 * relative ("3 minutes ago") with the exact time on hover, and periods in human units ("1 day", "1 hour 30 minutes").
 * Pure functions: templates call them through `it.times`.
 */
import moment from 'moment-timezone';
import { humanPeriod, PERIOD_UNITS as UNITS } from '../../../shared/domain/periods.js';

/** `zone` if moment-timezone knows it, else `UTC`: a stored zone that a newer tz database dropped still renders. */
export function zoneOr(zone: string | null | undefined): string {
  return zone && moment.tz.zone(zone) ? zone : 'UTC';
}

export { humanPeriod };

/**
 * A duration measured in milliseconds, short: 850 → "0.85 s", 12400 → "12 s", 340000 → "5 min 40 s", 7200000 → "2 h".
 *
 * @param ms - milliseconds (a run's length from its start ping).
 */
export function shortDuration(ms: number): string {
  if (ms < 10_000) return `${(Math.max(0, ms) / 1000).toFixed(2).replace(/\.?0+$/, '')} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h === 0) return `${m} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `${h} h${m ? ` ${m} min` : ''}`;
}

/**
 * "just now", "3 minutes ago", "in 2 hours": the distance from `now` in its largest unit.
 *
 * @param at - the moment described.
 * @param now - the clock's present.
 */
export function relativeTime(at: Date, now: Date): string {
  const diffS = Math.round((now.getTime() - at.getTime()) / 1000);
  const abs = Math.abs(diffS);
  if (abs < 10) return 'just now';
  const [name, size] = UNITS.slice(1).find(([, unitS]) => abs >= unitS) ?? ['second', 1];
  const n = Math.floor(abs / size);
  const text = `${n} ${name}${n === 1 ? '' : 's'}`;
  return diffS >= 0 ? `${text} ago` : `in ${text}`;
}

/**
 * The exact moment in `zone`: "2026-11-28 03:14:07 CET" (the zone's abbreviation, or its offset when it has none).
 *
 * @param at - the moment.
 * @param zone - IANA zone; unknown zones fall back to UTC.
 */
export function exactTime(at: Date, zone: string): string {
  return moment(at).tz(zoneOr(zone)).format('YYYY-MM-DD HH:mm:ss z');
}

/** What templates get as `it.times`: the helpers bound to the viewer's zone and the request's clock. */
export interface PageTimes {
  /** The zone times are shown in. */
  zone: string;
  /** The request's present. */
  now: Date;
  exact: (at: Date) => string;
  relative: (at: Date) => string;
  period: typeof humanPeriod;
  duration: typeof shortDuration;
}

/**
 * Helpers bound to one viewer: `zone` from the profile (or a page's zone switcher), `now` from the app's clock.
 *
 * @param zone - IANA zone; unknown zones fall back to UTC.
 * @param now - the request's present.
 */
export function pageTimes(zone: string | null | undefined, now: Date): PageTimes {
  const tz = zoneOr(zone);
  return { zone: tz, now, exact: (at) => exactTime(at, tz), relative: (at) => relativeTime(at, now), period: humanPeriod, duration: shortDuration };
}
