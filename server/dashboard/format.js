/**
 * Pure formatting rules of the dashboard: no DOM, no fetch, so the tests run
 * them in Node (test/server/dashboard/format.test.ts) as well as in the browser.
 *
 * Times arrive from the API as ISO 8601 strings; durations as seconds.
 */

/** Statuses in the order "sort by status" shows them: the ones needing attention first. */
export const STATUS_ORDER = ['down', 'grace', 'started', 'up', 'new', 'paused'];

/** What each status means, for the legend (behaviour.md §2.3). */
export const STATUS_MEANING = {
  new: 'never pinged',
  up: 'pinged on time',
  grace: 'late, within its grace time',
  down: 'missed its deadline or reported failure',
  paused: 'not monitored until the next ping',
  started: 'a run is in progress',
};

const UNITS = [
  { seconds: 86400, name: 'day' },
  { seconds: 3600, name: 'hour' },
  { seconds: 60, name: 'minute' },
  { seconds: 1, name: 'second' },
];

function plural(count, name) {
  return `${count} ${name}${count === 1 ? '' : 's'}`;
}

/**
 * A whole number of seconds in the largest unit that divides it: 300 → "5 minutes", 3600 → "1 hour", 90 → "90 seconds".
 *
 * @param {number} seconds
 * @returns {string}
 */
export function durationInWords(seconds) {
  const unit = UNITS.find((u) => seconds >= u.seconds && seconds % u.seconds === 0) ?? UNITS[UNITS.length - 1];
  return plural(seconds / unit.seconds, unit.name);
}

/**
 * A check's schedule in words: "every 5 minutes" (simple check, its timeout in seconds),
 * "every minute", "cron 0 3 * * * Europe/Riga" (cron check), or "OnCalendar Mon..Fri 09:00; Sat 12:00 UTC"
 * (any other schedule, its lines joined: the API's test, one line of exactly 5 fields is cron, behaviour.md §3.7 rule 3).
 *
 * @param {{timeout?: number, schedule?: string, tz?: string}} check - Check JSON.
 * @returns {string}
 */
export function scheduleInWords(check) {
  if (check.schedule !== undefined) {
    const lines = check.schedule.trim().split('\n');
    const kind = lines.length === 1 && lines[0].trim().split(/\s+/).length === 5 ? 'cron' : 'OnCalendar';
    return `${kind} ${lines.map((line) => line.trim()).join('; ')} ${check.tz ?? 'UTC'}`;
  }
  const words = durationInWords(check.timeout ?? 0);
  return words.startsWith('1 ') ? `every ${words.slice(2)}` : `every ${words}`;
}

/**
 * The time from `now` to `iso` in words, rounded down to its largest unit:
 * "just now" (under 5 seconds either way), "3 minutes ago", "in 2 hours"; "never" for null.
 *
 * @param {string | null} iso
 * @param {Date} now
 * @returns {string}
 */
export function relativeTime(iso, now) {
  if (iso === null || iso === undefined) return 'never';
  const deltaSeconds = Math.round((new Date(iso).getTime() - now.getTime()) / 1000);
  const abs = Math.abs(deltaSeconds);
  if (abs < 5) return 'just now';
  const unit = UNITS.find((u) => abs >= u.seconds);
  const words = plural(Math.floor(abs / unit.seconds), unit.name);
  return deltaSeconds < 0 ? `${words} ago` : `in ${words}`;
}

/**
 * The exact moment in UTC, to the second: "2026-11-24 06:50:12 UTC".
 *
 * @param {string} iso
 * @returns {string}
 */
export function exactTime(iso) {
  return new Date(iso).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

/**
 * A run's duration (seconds, fractional) for the ping log: "0.42 s", "2 min 5 s", "1 h 2 min".
 *
 * @param {number} seconds
 * @returns {string}
 */
export function runDuration(seconds) {
  if (seconds < 60) return `${Number(seconds.toFixed(2))} s`;
  const whole = Math.floor(seconds);
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${whole % 60} s`;
  return `${Math.floor(whole / 3600)} h ${Math.floor((whole % 3600) / 60)} min`;
}

/**
 * The status the dashboard shows: the API's `status`, except that a check with a run in progress
 * (`started`) that is not down or paused shows `started` (the API reports that state as a flag in v3,
 * behaviour.md §7 item 5).
 *
 * @param {{status: string, started: boolean}} check - Check JSON.
 * @returns {string}
 */
export function displayStatus(check) {
  return check.started && check.status !== 'down' && check.status !== 'paused' ? 'started' : check.status;
}

/**
 * Sort rank of a status: lower sorts first (down first).
 *
 * @param {string} status
 * @returns {number}
 */
export function statusRank(status) {
  const rank = STATUS_ORDER.indexOf(status);
  return rank === -1 ? STATUS_ORDER.length : rank;
}

/**
 * A check's tags as a list (the API's `tags` is space-separated).
 *
 * @param {string} tags
 * @returns {string[]}
 */
export function tagList(tags) {
  return tags.split(/\s+/).filter((tag) => tag !== '');
}

/**
 * Whether a check matches the dashboard's filters: it carries every tag of `tags`
 * (as the API's repeated `tag` filter, behaviour.md §3.6 List checks) and, when
 * `search` is not blank, its name, slug, tags or description contain it (case-insensitive).
 *
 * @param {{name: string, slug: string, tags: string, desc: string}} check - Check JSON.
 * @param {string[]} tags
 * @param {string} search
 * @returns {boolean}
 */
export function matchesFilters(check, tags, search) {
  const own = tagList(check.tags);
  if (!tags.every((tag) => own.includes(tag))) return false;
  const needle = search.trim().toLowerCase();
  if (needle === '') return true;
  return [check.name, check.slug, check.tags, check.desc].some((text) => text.toLowerCase().includes(needle));
}

/**
 * Checks in display order: by status (down first, then by name), by name, or by last ping (newest first, never last).
 *
 * @param {Array<{name: string, status: string, last_ping: string | null}>} checks
 * @param {'status' | 'name' | 'last_ping'} by
 * @returns {Array} A new array.
 */
export function sortChecks(checks, by) {
  const byName = (a, b) => a.name.localeCompare(b.name);
  const compare = {
    status: (a, b) => statusRank(a.status) - statusRank(b.status) || byName(a, b),
    name: byName,
    last_ping: (a, b) => (b.last_ping ?? '').localeCompare(a.last_ping ?? '') || byName(a, b),
  }[by];
  return [...checks].sort(compare);
}

/**
 * Up and down periods of the last `windowSeconds` before `now`, from the flips in that window:
 * before the first flip the check was in the opposite state of it; without flips it was in its
 * current state throughout. `unknown` is a period the check was new or paused (not monitored).
 *
 * When the check's first ping is known (`monitoredSince`), the time before it is `unknown` too.
 *
 * @param {Array<{timestamp: string, up: 0 | 1 | boolean}>} flips - Flip JSON, any order.
 * @param {string} status - The check's current status.
 * @param {Date} now
 * @param {number} windowSeconds
 * @param {Date | null} [monitoredSince] - The moment of the check's ping number 1, when the log still has it.
 * @returns {Array<{from: Date, to: Date, state: 'up' | 'down' | 'unknown'}>} Oldest first, covering the window.
 */
export function flipPeriods(flips, status, now, windowSeconds, monitoredSince = null) {
  const windowStart = new Date(now.getTime() - windowSeconds * 1000);
  const periods = [];
  let start = windowStart;
  if (monitoredSince && monitoredSince > windowStart) {
    start = monitoredSince < now ? monitoredSince : now;
    periods.push({ from: windowStart, to: start, state: 'unknown' });
  }
  const sorted = flips
    .map((flip) => ({ at: new Date(flip.timestamp), up: Boolean(flip.up) }))
    .filter((flip) => flip.at >= windowStart && flip.at <= now)
    .sort((a, b) => a.at - b.at);
  const current = status === 'down' ? 'down' : status === 'new' || status === 'paused' ? 'unknown' : 'up';
  let from = start;
  let state = sorted.length > 0 ? (sorted[0].up ? 'down' : 'up') : current;
  for (const flip of sorted) {
    if (flip.at > from) periods.push({ from, to: flip.at, state });
    if (flip.at > from) from = flip.at;
    state = flip.up ? 'up' : 'down';
  }
  if (sorted.length > 0 && (status === 'new' || status === 'paused')) state = 'unknown';
  periods.push({ from, to: now, state });
  return periods;
}

/**
 * The share of the window each state covers, in percent with one decimal.
 *
 * @param {Array<{from: Date, to: Date, state: string}>} periods
 * @returns {{up: number, down: number, unknown: number}}
 */
export function periodShares(periods) {
  const total = periods.reduce((sum, p) => sum + (p.to - p.from), 0) || 1;
  const share = (state) =>
    Math.round((periods.filter((p) => p.state === state).reduce((sum, p) => sum + (p.to - p.from), 0) / total) * 1000) / 10;
  return { up: share('up'), down: share('down'), unknown: share('unknown') };
}
