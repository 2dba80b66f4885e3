/** Ping log entry JSON (docs/api-reference.md, "Ping object") and the `duration` pairing of completions with their start (docs/checks.md, "Runs"). */
import type { PingDoc, PingKind } from '../../shared/models/ping.js';
import { config } from '../../shared/config.js';
import type { ApiVersion } from '../middleware/version.js';
import { isoMicros } from './time.js';

const MS_PER_SECOND = 1000;

/** Starts older than this (milliseconds) are not paired (docs/checks.md, "Runs": under 72 hours). */
const MAX_PAIRING_MS = 72 * 3600 * MS_PER_SECOND;

/** The ping fields the list shows; `hasBody` (a non-empty body is stored) replaces the body bytes. */
export type ListedPing = Pick<PingDoc, 'n' | 'created' | 'kind' | 'scheme' | 'remoteAddr' | 'method' | 'ua' | 'rid' | 'exitStatus'> & {
  hasBody: boolean;
};

/** A ping log entry. */
export interface PingJson {
  type: PingKind;
  /** Six fractional digits, `+00:00` offset. */
  date: string;
  n: number;
  scheme: string;
  remote_addr: string | null;
  method: string;
  ua: string;
  rid: string | null;
  body_url: string | null;
  /** Seconds, 2 decimals; only on a completion paired with its start. */
  duration?: number;
  /** The exit status (0–255) or null; only when asked for (`?exitstatus=1`, an extension the earlier wall display used). */
  exitstatus?: number | null;
}

/** Options of the ping log's presentation. */
export interface PingsView {
  /** The request's API version, the path of `body_url` (docs/api-reference.md, "Ping object"). */
  version: ApiVersion;
  /** Whether entries carry `exitstatus`, only on request (`?exitstatus=1`): the reference does not expose it (docs/api-reference.md, "Ping object"). */
  exitStatus: boolean;
}

/**
 * Durations in ms by `n` of completions (`pings` newest first): each success or fail pairs with the latest earlier
 * start of the same rid (null matches null) if no completion of that rid lies between and the gap is under 72 hours.
 */
export function pairDurations(pings: ListedPing[]): Map<number, number> {
  const starts = new Map<string | null, Date>();
  const durations = new Map<number, number>();
  for (const ping of [...pings].reverse()) {
    if (ping.kind === 'start') {
      starts.set(ping.rid, ping.created);
    } else if (ping.kind === 'success' || ping.kind === 'fail') {
      const start = starts.get(ping.rid);
      starts.delete(ping.rid);
      const gapMs = start ? ping.created.getTime() - start.getTime() : Infinity;
      if (gapMs < MAX_PAIRING_MS) durations.set(ping.n, gapMs);
    }
  }
  return durations;
}

/** The ping log of a check (`pings` newest first), for `view`'s API version and `exitstatus` choice. */
export function presentPings(checkId: string, pings: ListedPing[], view: PingsView): PingJson[] {
  const durations = pairDurations(pings);
  return pings.map((ping) => {
    const json: PingJson = {
      type: ping.kind,
      date: isoMicros(ping.created),
      n: ping.n,
      scheme: ping.scheme,
      remote_addr: ping.remoteAddr,
      method: ping.method,
      ua: ping.ua,
      rid: ping.rid,
      body_url: ping.hasBody ? `${config.baseUrl}/api/v${view.version}/checks/${checkId}/pings/${ping.n}/body` : null,
    };
    const durationMs = durations.get(ping.n);
    if (durationMs !== undefined) json.duration = Math.round(durationMs / 10) / 100;
    if (view.exitStatus) json.exitstatus = ping.exitStatus ?? null;
    return json;
  });
}
