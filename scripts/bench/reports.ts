/**
 * The tables of the bench's scale-out, recovery and drain phases (issue 24 "Tests and figures"): each runs its
 * measurement and prints its rows as they come, in the README's Markdown form. Times are printed in seconds.
 */
import type { Redis } from 'ioredis';
import { measureDrain } from './drain.js';
import { measureRecovery, type RecoveryResult } from './recovery.js';
import { measureScaleOut, type ScaleOutRow, type ScaleOutStage } from './scaleout.js';

/** Prints a line of the report. */
export type Out = (line?: string) => unknown;

const seconds = (ms: number): string => (ms / 1000).toFixed(1);

/** Throughput with one and with two web processes (scripts/bench/scaleout.ts). */
export async function reportScaleOut(stage: ScaleOutStage, out: Out): Promise<void> {
  out(`ping throughput with one and with two web processes (unpinned, one worker), ${stage.shape.connections} connections spread over them, ${stage.shape.durationS} s each:`);
  out('| web processes | mode | pings/s | p50 ms | p99 ms | 200s | errors | stored (sum of n_pings) | all stored after the load | peak RSS MB |');
  out('|---|---|---|---|---|---|---|---|---|---|');
  const rows: ScaleOutRow[] = [];
  await measureScaleOut(stage, (row) => {
    rows.push(row);
    const r = row.result;
    const caught = row.catchUpS === undefined ? `NOT within 600 s (${r.ok - row.stored} missing)` : `+${row.catchUpS.toFixed(1)} s`;
    out(`| ${row.webs} | ${row.mode} | ${Math.round(r.rps)} | ${r.p50Ms} | ${r.p99Ms} | ${r.ok} | ${r.non2xx + r.errors} | ${row.stored} | ${caught} | ${row.peakRssMb.map((mb) => mb ?? '?').join(', ')} |`);
  });
  for (const mode of new Set(rows.map((r) => r.mode))) {
    const mean = (n: number): number => {
      const of = rows.filter((r) => r.mode === mode && r.webs === n);
      return of.reduce((sum, r) => sum + r.result.rps, 0) / of.length;
    };
    out(`${mode}: two web processes / one = ${(mean(2) / mean(1)).toFixed(2)}x pings/s (means of the loads; one ${Math.round(mean(1))}/s, two ${Math.round(mean(2))}/s)`);
  }
  out();
}

/** Alert delay after a worker kill and after a Redis flush (scripts/bench/recovery.ts). */
export async function reportRecovery(mongoUri: string, prefix: string, count: number, out: Out): Promise<void> {
  out(`recovery: ${count} checks due in the same instant, a webhook each to a local receiver, workers on the shipped intervals; `
    + 'alert delay after the deadline, seconds:');
  out('| fault | alerts received | p50 | p99 | max | repeats (same Idempotency-Key) | down flips (checks flipped twice) |');
  out('|---|---|---|---|---|---|---|');
  await measureRecovery(mongoUri, prefix, count, (r: RecoveryResult) => {
    const d = r.delays;
    const delays = d ? `${seconds(d.p50)} | ${seconds(d.p99)} | ${seconds(d.max)}` : '| |';
    out(`| ${r.fault} | ${r.alerted} of ${r.checks} | ${delays} | ${r.repeats} (${r.repeatsSameKey}) | ${r.flips} (${r.flippedTwice}) |`);
  });
  out();
}

/** The drain after a 200-client burst with the database paused 10 s (scripts/bench/drain.ts). */
export async function reportDrain(mongoUri: string, redisUrl: string, redis: Redis, prefix: string, out: Out): Promise<void> {
  const r = await measureDrain(mongoUri, redisUrl, redis, prefix);
  out(`drain: 200 clients pinging 20 checks for 10 s with the bench's own database paused (SIGSTOP) meanwhile; ${r.backend}`);
  out('| measure | value |\n|---|---|');
  out(`| pings acknowledged (200) | ${r.acknowledged} |`);
  out(`| answers by status | ${Object.entries(r.statuses).map(([status, n]) => `${status}: ${n}`).join(', ')} |`);
  out(`| visible in the API (sum of n_pings) when the load ended | ${r.visibleAtEnd} |`);
  out(`| every acknowledged ping visible in the API, after the load's end, s | ${r.drainMs === undefined ? 'NOT within 600 s' : seconds(r.drainMs)} |`);
  out(`| worker's apply rate from the load's end, pings/s | ${r.applyRate ?? '?'} |`);
  out(`| web process's peak RSS (VmHWM), MB | ${r.webPeakRssMb ?? '?'} |`);
  out();
}
