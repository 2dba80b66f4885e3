/**
 * Timestamp formats of API responses (behaviour.md §1.2): UTC with an explicit
 * `+00:00` offset, never `Z`.
 */

/**
 * A moment truncated (not rounded) to whole seconds, as check `last_ping`,
 * `next_ping` and flip `timestamp` show it.
 *
 * @returns For example `2020-06-01T12:24:32+00:00`; null for null.
 */
export function isoSeconds(at: Date): string;
export function isoSeconds(at: Date | null): string | null;
export function isoSeconds(at: Date | null): string | null {
  return at ? `${at.toISOString().slice(0, 19)}+00:00` : null;
}

/**
 * A moment with six fractional digits, as ping-log `date` shows it. A `Date`
 * holds milliseconds, so the last three digits are always zero.
 *
 * @returns For example `2020-06-09T14:51:06.113000+00:00`.
 */
export function isoMicros(at: Date): string {
  return `${at.toISOString().slice(0, 23)}000+00:00`;
}
