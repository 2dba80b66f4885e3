/**
 * Runs of a check from its pings (docs/checks.md, "Runs", the API's ping `duration`), and the percentiles the
 * run-duration chart states. Pure.
 */
import type { PingKind } from '../models/ping.js';

/** What pairing reads of a ping. */
export interface RunPing {
  n: number;
  created: Date;
  kind: PingKind;
  rid: string | null;
}

/** A start ping followed by its success or fail ping. */
export interface Run {
  start: Date;
  end: Date;
  /** `end − start`, milliseconds. */
  durationMs: number;
  outcome: 'success' | 'fail';
  rid: string | null;
  /** The ending ping's number. */
  n: number;
}

/** A start and its end must lie less than this apart (docs/checks.md, "Runs"), milliseconds. */
export const MAX_RUN_MS = 72 * 3600 * 1000;

/**
 * Pairs each success or fail ping with the most recent earlier start of the same rid (null matches null), as the API's
 * ping `duration` does (docs/checks.md, "Runs"): no other success or fail with that rid between them, less than
 * 72 hours apart; `log` and `ign` pings do not break a pair. Concurrent rids pair independently.
 *
 * @param pings - in any order; sorted by `n` here.
 * @returns The runs, oldest first.
 */
export function runsFromPings(pings: readonly RunPing[]): Run[] {
  const open = new Map<string | null, RunPing>();
  const runs: Run[] = [];
  for (const ping of [...pings].sort((a, b) => a.n - b.n)) {
    if (ping.kind === 'start') open.set(ping.rid, ping);
    if (ping.kind !== 'success' && ping.kind !== 'fail') continue;
    const start = open.get(ping.rid);
    open.delete(ping.rid);
    const durationMs = start ? ping.created.getTime() - start.created.getTime() : -1;
    if (!start || durationMs < 0 || durationMs >= MAX_RUN_MS) continue;
    runs.push({ start: start.created, end: ping.created, durationMs, outcome: ping.kind, rid: ping.rid, n: ping.n });
  }
  return runs;
}

/**
 * The `p`th percentile of `values`, interpolated linearly between the two nearest ranks (rank `p/100 × (count − 1)`,
 * so p50 of an even count is the mean of the middle two).
 *
 * @param p - 0 to 100.
 * @returns null for no values.
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const low = sorted[Math.floor(rank)] ?? 0;
  const high = sorted[Math.ceil(rank)] ?? low;
  return low + (high - low) * (rank - Math.floor(rank));
}

/** Minimum, median, 95th percentile and maximum of run durations, milliseconds. */
export interface RunStats {
  count: number;
  minMs: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

/** The stats of `runs`; null when there are none. */
export function runStats(runs: readonly Run[]): RunStats | null {
  const ms = runs.map((run) => run.durationMs);
  if (ms.length === 0) return null;
  return { count: ms.length, minMs: Math.min(...ms), medianMs: percentile(ms, 50) ?? 0, p95Ms: percentile(ms, 95) ?? 0, maxMs: Math.max(...ms) };
}
