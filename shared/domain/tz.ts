/** Time zones: names (docs/checks.md, "Time zones") and the wall-clock arithmetic of daylight saving (docs/checks.md, "Cron in detail"), from moment-timezone. */
import moment from 'moment-timezone';
import { LEGACY_TIME_ZONES } from './tz-legacy.js';

const MINUTE_MS = 60_000;
/** UTC offsets stay within a day of UTC; twice that bounds where a wall time can fall. */
const WALL_WINDOW_MS = 2 * 24 * 60 * MINUTE_MS;

/** Every name moment-timezone knows, canonical or legacy; exact case. */
const KNOWN_NAMES: ReadonlySet<string> = new Set(moment.tz.names());

/**
 * The canonical IANA name for `tz` (docs/checks.md, "Time zones"): `tz` itself when canonical (`UTC` included), the
 * target of a legacy alias (`US/Eastern` → `America/New_York`), null when unknown. Exact case: `utc` is unknown.
 */
export function canonicalTz(tz: string): string | null {
  const canonical = LEGACY_TIME_ZONES.get(tz);
  if (canonical !== undefined) return canonical;
  return KNOWN_NAMES.has(tz) ? tz : null;
}

/** Whether moment-timezone knows `name` (canonical or legacy; exact case), as an OnCalendar zone suffix must be. */
export function isZoneName(name: string): boolean {
  return KNOWN_NAMES.has(name);
}

/**
 * A zone's offset history: segment i lasts until `untils[i]` (epoch ms, exclusive; the last is Infinity) with UTC
 * offset `-offsets[i]` minutes (moment counts minutes west).
 */
export interface ZoneSegments {
  untils: number[];
  offsets: number[];
}

/**
 * The offset history of a zone (canonical or legacy name).
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
 * The stretch of constant offset `atMs` (epoch ms) falls in: `offsetMs` (instant + offsetMs = wall ms) and
 * `untilMs`, the next offset change (exclusive; Infinity when none).
 */
export function offsetAt(zone: ZoneSegments, atMs: number): { offsetMs: number; untilMs: number } {
  const i = segmentIndex(zone, atMs);
  return { offsetMs: offsetMs(zone, i), untilMs: zone.untils[i] };
}

/**
 * The instant (epoch ms) a wall time on a whole minute is reached (docs/checks.md, "Cron in detail"): a repeated wall time
 * gives its first occurrence, one in a spring-forward gap the first real minute after the gap.
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
      // Too early for segment i, too late for i-1: in the gap before i. Fire at the first whole wall minute after it.
      const gapEndWallMs = startMs + offsetMs(zone, i);
      return Math.ceil(gapEndWallMs / MINUTE_MS) * MINUTE_MS - offsetMs(zone, i);
    }
  }
  throw new Error(`no instant for wall time ${wallMs}`);
}

/** Where a wall time (ms, any second) first occurs: its instant (a repeated one's first pass), or the gap it falls in. */
export type FirstInstant = { atMs: number } | { gapEndWallMs: number };

/**
 * The first instant (epoch ms) showing wall time `wallMs`, as Python's `fold=0` reads it; in a spring-forward gap,
 * the wall time at which the gap ends instead (OnCalendar: such times never fire).
 * @throws Error if the zone data has no segment near `wallMs` (not seen in real data).
 */
export function firstInstantOf(zone: ZoneSegments, wallMs: number): FirstInstant {
  const first = segmentIndex(zone, wallMs - WALL_WINDOW_MS);
  const last = segmentIndex(zone, wallMs + WALL_WINDOW_MS);
  for (let i = first; i <= last; i++) {
    const atMs = wallMs - offsetMs(zone, i);
    const startMs = i === 0 ? -Infinity : zone.untils[i - 1];
    if (atMs >= startMs && atMs < zone.untils[i]) return { atMs };
    if (atMs < startMs) return { gapEndWallMs: startMs + offsetMs(zone, i) };
  }
  throw new Error(`no instant for wall time ${wallMs}`);
}

/**
 * When instant `atMs` shows a wall time that already occurred (the second pass after a fall-back), the wall time
 * at which that repetition ends; otherwise null.
 */
export function repeatEndWall(zone: ZoneSegments, atMs: number): number | null {
  const i = segmentIndex(zone, atMs);
  if (i === 0) return null;
  const endWallMs = zone.untils[i - 1] + offsetMs(zone, i - 1);
  return atMs + offsetMs(zone, i) < endWallMs ? endWallMs : null;
}
