/** Periods in human units ("1 day", "1 hour 30 minutes"), as the web app and the email alerts write them. Pure. */

/** Seconds in each unit a period is written with, largest first. */
export const PERIOD_UNITS: ReadonlyArray<[string, number]> = [['week', 604800], ['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]];

/**
 * A period in at most two human units: 86400 → "1 day", 5400 → "1 hour 30 minutes", 0 → "0 seconds".
 *
 * @param seconds - whole seconds (the API's `timeout`, `grace`, a run's duration rounded).
 */
export function humanPeriod(seconds: number): string {
  const parts: string[] = [];
  let rest = Math.max(0, Math.round(seconds));
  for (const [name, size] of PERIOD_UNITS) {
    if (parts.length === 2) break;
    const n = Math.floor(rest / size);
    if (n === 0) continue;
    parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
    rest -= n * size;
  }
  return parts.length ? parts.join(' ') : '0 seconds';
}
