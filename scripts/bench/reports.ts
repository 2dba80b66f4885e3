/**
 * The tables of the bench's phases but throughput (throughput-report.ts): each runs its measurement and prints its
 * rows as they come, in docs/benchmarks.md's Markdown form. Times are printed in milliseconds or, where said, seconds.
 */
import { loadavg } from 'node:os';
import type { Redis } from 'ioredis';
import { closeQueues, openQueues } from '../../shared/queues/index.js';
import type { Out } from './common.js';
import { measureAlertLatency } from './alerts.js';
import { measureDrain } from './drain.js';
import { measureLateness } from './lateness.js';
import type { BenchOptions } from './options.js';
import { measureRecovery, type RecoveryResult } from './recovery.js';
import { measureScale } from './scale.js';
import { measureScaleOut, type ScaleOutRow, type ScaleOutStage } from './scaleout.js';
import { median, trialsOf, type Summary } from './stats.js';
import { load, type LoadResult } from './throughput.js';
import { measureWindowEnd } from './window.js';

/** What the lateness, alerts, scale and window phases run against: the bench's web process, project, Redis and queue prefix. */
export interface BenchStage {
  origin: string;
  apiKey: string;
  projectId: string;
  redis: Redis;
  prefix: string;
  opts: BenchOptions;
}

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
export async function reportDrain(redisUrl: string, redis: Redis, prefix: string, out: Out): Promise<void> {
  const r = await measureDrain(redisUrl, redis, prefix);
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

const summaryRow = (name: string, s: Summary): string => `| ${name} | ${s.count} | ${s.p50} | ${s.p99} | ${s.max} |`;

/** Deadline lateness and alert latency, in one table: whichever of the two phases `--phases` names (lateness.ts, alerts.ts). */
export async function reportLatency(stage: BenchStage, out: Out): Promise<void> {
  const { origin, projectId, opts } = stage;
  const runs = { lateness: opts.phases.includes('lateness'), alerts: opts.phases.includes('alerts') };
  if (!runs.lateness && !runs.alerts) return;
  out('deadline lateness and alert latency, milliseconds after each check\'s computed down moment:');
  out('| measure | checks | p50 | p99 | max |\n|---|---|---|---|---|');
  if (runs.lateness) {
    out(summaryRow(`flip stored, ${opts.checks} checks pinged at once (due within the pinging time)`, await measureLateness(origin, projectId, opts.checks)));
    out(summaryRow(`flip stored, one check alone (${opts.trials} trials)`, await trialsOf(opts.trials, () => measureLateness(origin, projectId, 1))));
  }
  if (!runs.alerts) return;
  const masses: { flips: Summary; alerts: Summary }[] = [];
  for (let i = 1; i <= opts.massTrials; i++) {
    const together = await measureAlertLatency(origin, projectId, opts.checks);
    masses.push(together);
    const which = opts.massTrials > 1 ? ` (mass down ${i} of ${opts.massTrials})` : '';
    out(summaryRow(`flip stored, ${opts.checks} cron checks due in the same instant${which}`, together.flips));
    out(summaryRow(`webhook alert received, ${opts.checks} cron checks due in the same instant${which}`, together.alerts));
  }
  if (masses.length > 1) {
    out(`| median of the ${masses.length} mass downs' p99: flip stored / webhook alert received | ${opts.checks} | | ${median(masses.map((m) => m.flips.p99))} / ${median(masses.map((m) => m.alerts.p99))} | |`);
  }
  const single = await trialsOf(opts.trials, async () => (await measureAlertLatency(origin, projectId, 1, false)).alerts);
  out(`${summaryRow(`webhook alert received, one check alone (${opts.trials} trials)`, single)}\n`);
}

/**
 * `--scale` active checks: Redis per check, a sweep pass, and the ping load over them (scale.ts).
 *
 * @param service - The throughput phase's load, when it ran, for its p50 beside this one's.
 */
export async function reportScale(stage: BenchStage, service: LoadResult | undefined, out: Out): Promise<void> {
  const { opts } = stage;
  out(`scale: ${opts.scale} active checks`);
  const queues = openQueues(stage.redis, stage.prefix);
  const scale = await measureScale(queues, stage.redis, stage.projectId, opts.scale);
  await closeQueues(queues);
  const scaled = await load(stage.origin, scale.paths, { connections: opts.connections, durationS: opts.duration });
  out('| measure | value |\n|---|---|');
  out(`| setup (insert + schedule), s | ${(scale.setupMs / 1000).toFixed(1)} |`);
  out(`| Redis bytes per check (its one delayed deadline job) | ${Math.round(scale.redisBytesPerCheck)} |`);
  out(`| sweep pass, ms (deadlines re-added: ${scale.sweepDeadlines}) | ${scale.sweepMs} |`);
  out(`| ping p50 / p99 ms, pings/s, at ${opts.scale} checks | ${scaled.p50Ms} / ${scaled.p99Ms}, ${Math.round(scaled.rps)} |`);
  out(`| ping p50 at ${opts.checks} checks (above) | ${service ? service.p50Ms : 'not measured (throughput phase not run)'} |`);
}

/** `--window-checks` checks down in one maintenance window, measured from its end (window.ts). */
export async function reportWindowEnd(stage: BenchStage, out: Out): Promise<void> {
  const queues = openQueues(stage.redis, stage.prefix);
  try {
    const n = stage.opts.windowChecks;
    const loads = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');
    const before = loads();
    const w = await measureWindowEnd(stage.origin, stage.apiKey, stage.projectId, queues, n, stage.opts.windowLead);
    out(`maintenance window end: ${n} checks down in one window, milliseconds after the window's end (load average ${before} before, ${loads()} after):`);
    out('| measure | checks | p50 | p99 | max |\n|---|---|---|---|---|');
    out(summaryRow('"resumed" alert owed (notification written)', w.owed));
    const missing = w.arrived < n ? ` (ONLY ${w.arrived} of ${n} within ${w.waitedS} s: figures of those)` : '';
    out(summaryRow(`webhook alert received${missing}`, w.alerts));
    out(`webhook requests: ${w.requests} for ${n} checks; checks alerted more than once: ${w.duplicates}; sent inside the window: ${w.insideWindow}\n`);
  } finally {
    await closeQueues(queues);
  }
}
