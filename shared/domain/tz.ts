/**
 * Time zones: names (behaviour.md §2.4 rule 9) and the offset arithmetic the
 * DST rules need (rules 7–8). Zone data comes from moment-timezone.
 *
 * Wall ms: a local date and time written as the epoch milliseconds the same
 * date and time would have in UTC (see cron-search.ts).
 */
import moment from 'moment-timezone';
import { LEGACY_TIME_ZONES } from './tz-legacy.js';

const MINUTE_MS = 60_000;
/** UTC offsets stay within a day of UTC; twice that bounds where a wall time can fall. */
const WALL_WINDOW_MS = 2 * 24 * 60 * MINUTE_MS;

/** Every name moment-timezone knows, canonical or legacy; exact case. */
const KNOWN_NAMES: ReadonlySet<string> = new Set(moment.tz.names());

/**
 * The canonical IANA name for `tz` (behaviour.md §2.4 rule 9).
 *
 * @param tz - A zone name as sent; exact case (`utc` is unknown, as in the reference).
 * @returns `tz` itself when canonical (`UTC` and `Etc/UTC` included); the
 *   canonical name for a legacy alias (`US/Eastern` → `America/New_York`,
 *   `UCT` → `Etc/UTC`, `CET` → `Europe/Brussels`); null when unknown.
 */
export function canonicalTz(tz: string): string | null {
  const canonical = LEGACY_TIME_ZONES.get(tz);
  if (canonical !== undefined) return canonical;
  return KNOWN_NAMES.has(tz) ? tz : null;
}

/**
 * A zone's offset history: segment i lasts until `untils[i]` (exclusive,
 * epoch ms; the last is Infinity) with UTC offset `-offsets[i]` minutes
 * (moment counts minutes west of UTC).
 */
export interface ZoneSegments {
  untils: number[];
  offsets: number[];
}

/**
 * The offset history of a zone.
 *
 * @param tz - Any name moment-timezone knows (canonical or legacy).
 * @returns The zone's segments.
 * @throws Error for an unknown zone (the API validates `tz` first).
 */
export function zoneSegments(tz: string): ZoneSegments {
  const zone = KNOWN_NAMES.has(tz) ? moment.tz.zone(tz) : null;
  if (!zone) throw new Error(`unknown time zone: ${tz}`);
  return zone;
}

/** Index of the segment that contains instant `atMs`. */
function segmentIndex(zone: ZoneSegments, atMs: number): number {
  let low = 0;
  let high = zone.untils.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (zone.untils[mid] > atMs) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** Milliseconds to add to an instant to get its wall time, in segment `i`. */
function offsetMs(zone: ZoneSegments, i: number): number {
  return -zone.offsets[i] * MINUTE_MS;
}

/**
 * The stretch of constant offset an instant falls in.
 *
 * @param zone - Offset history from {@link zoneSegments}.
 * @param atMs - An instant, epoch ms.
 * @returns `offsetMs` (add it to an instant to get wall ms) and `untilMs`, the
 *   next offset change (epoch ms, exclusive end; Infinity when none).
 */
export function offsetAt(zone: ZoneSegments, atMs: number): { offsetMs: number; untilMs: number } {
  const i = segmentIndex(zone, atMs);
  return { offsetMs: offsetMs(zone, i), untilMs: zone.untils[i] };
}

/**
 * The instant at which a wall-clock time is reached (behaviour.md §2.4 rule 7):
 * a wall time that occurs twice gives its first occurrence, and one inside a
 * spring-forward gap gives the first real minute after the gap.
 *
 * @param zone - Offset history from {@link zoneSegments}.
 * @param wallMs - A wall time on a whole minute, wall ms.
 * @returns The instant, epoch ms.
 * @throws Error if the zone data has no segment near `wallMs` (not seen in real data).
 */
export function wallToInstant(zone: ZoneSegments, wallMs: number): number {
  const first = segmentIndex(zone, wallMs - WALL_WINDOW_MS);
  const last = segmentIndex(zone, wallMs + WALL_WINDOW_MS);
  for (let i = first; i <= last; i++) {
    const atMs = wallMs - offsetMs(zone, i);
    const startMs = i === 0 ? -Infinity : zone.untils[i - 1];
    if (atMs >= startMs && atMs < zone.untils[i]) return atMs;
    if (atMs < startMs) {
      // Too early for segment i yet too late for i-1: wallMs lies in the gap
      // before segment i. Fire at the first whole wall minute after the gap.
      const gapEndWallMs = startMs + offsetMs(zone, i);
      return Math.ceil(gapEndWallMs / MINUTE_MS) * MINUTE_MS - offsetMs(zone, i);
    }
  }
  throw new Error(`no instant for wall time ${wallMs}`);
}
