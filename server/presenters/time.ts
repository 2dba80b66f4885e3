/** Timestamp formats of API responses (docs/api-reference.md, "Times"): UTC with `+00:00`, never `Z`. */

/** Truncated to whole seconds (`2020-06-01T12:24:32+00:00`), as `last_ping` and flip `timestamp`; null for null. */
export function isoSeconds(at: Date): string;
export function isoSeconds(at: Date | null): string | null;
export function isoSeconds(at: Date | null): string | null {
  return at ? `${at.toISOString().slice(0, 19)}+00:00` : null;
}

/** Six fractional digits, the last three zero (`2020-06-09T14:51:06.113000+00:00`), as ping-log `date`. */
export function isoMicros(at: Date): string {
  return `${at.toISOString().slice(0, 23)}000+00:00`;
}
