/**
 * `npm run bench`: ping throughput against the bare-http ceiling (as
 * configured, and with every ping answered once journaled in Redis, with the
 * time MongoDB then needs to catch up), deadline
 * lateness and alert latency (a thousand checks at once, and one alone), and
 * the cost of scale (Redis bytes per check, a sweep pass, ping latency with
 * 100,000 active checks), and the end of a maintenance window holding 10,000
 * down checks (their alerts measured from the window's end), on this machine, with the service's real web and
 * worker processes; and issue 24's figures: throughput with one and with two web
 * processes, recovery times after a worker kill and a Redis flush (on a redis-server
 * of the phase's own), and the drain after a burst with the database paused (a
 * FerretDB of the phase's own), all with the shipped intervals.
 *
 * Uses MONGODB_URI / REDIS_URL (or the local defaults; `npm run services`
 * starts them) with a database and a queue prefix of its own (`hc_bench_<pid>`),
 * both removed at the end; nothing else in either server is touched. Pings may
 * wait up to 60 s for the database (PING_TIMEOUT_MS), so that an overloaded
 * database shows as latency in the figures instead of ending a phase with 503s.
 *
 * The web processes and the bare node:http server run pinned to one CPU
 * (`--web-cpu`, by default the last one when `taskset` exists and there are
 * several), so that their figures are those of one core, beside the load
 * generator, the worker and the databases.
 *
 * With `--reference-url` (a Healthchecks already running on 127.0.0.1, with a project API key in
 * `--reference-key`), the throughput phase puts the same load on the reference too,
 * over as many checks made through its API, and counts what it stored the same way.
 *
 *   npm run bench -- [--checks N] [--scale N] [--duration S] [--connections N] [--trials N]
 *                    [--mass-trials N] [--recovery-checks N] [--window-checks N] [--window-lead S] [--web-cpu N|none]
 *                    [--phases throughput,scaleout,lateness,alerts,recovery,drain,scale,window]
 *                    [--reference-url URL [--reference-key KEY] [--reference-server TEXT] [--reference-pid N]]
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { Command, InvalidArgumentError } from 'commander';
import mongoose from 'mongoose';
import { Redis } from 'ioredis';
import { config } from '../../shared/config.js';
import { connectDb, disconnectDb } from '../../shared/db.js';
import '../../shared/models/index.js';
import { Check } from '../../shared/models/check.js';
import { closeQueues, openQueues } from '../../shared/queues/index.js';
import { createProject } from '../../shared/services/projects.js';
import { freePort, peakRssMbOf, startNode, waitForHttp, type Child } from './processes.js';
import { load, loadOf, startCeilingServer, type LoadResult } from './throughput.js';
import { createChecks, inBatches, measureLateness } from './lateness.js';
import { measureAlertLatency } from './alerts.js';
import { measureScale } from './scale.js';
import { measureWindowEnd } from './window.js';
import { createReferenceChecks, deleteReferenceChecks, loadReference, localOrigin, referenceNPings, type Reference } from './reference.js';
import { summarize, type Summary } from './stats.js';
import { reportDrain, reportRecovery, reportScaleOut } from './reports.js';

const RUN = `hc_bench_${process.pid}`;

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a whole number above 0');
  return n;
}

/** The bench's phases, in the order they run. */
const PHASES = ['throughput', 'scaleout', 'lateness', 'alerts', 'recovery', 'drain', 'scale', 'window'] as const;
type Phase = (typeof PHASES)[number];

function phases(value: string): Phase[] {
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(PHASES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown phase ${unknown.join(', ')} (phases: ${PHASES.join(', ')})`);
  return names as Phase[];
}

/** The last CPU when `taskset` can pin to it and there are several, else undefined (unpinned). */
function defaultWebCpu(): number | undefined {
  const cpus = availableParallelism();
  return cpus > 1 && spawnSync('taskset', ['--version']).status === 0 ? cpus - 1 : undefined;
}

function webCpu(value: string): number | undefined {
  if (value === 'none') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('a CPU number (0, 1, …) or none');
  return n;
}

const program = new Command('bench')
  .option('--checks <n>', 'checks in the throughput, lateness and alert phases', count, 1000)
  .option('--scale <n>', 'active checks in the scale phase', count, 100_000)
  .option('--duration <s>', 'seconds of each ping load', count, 20)
  .option('--connections <n>', 'concurrent connections of each ping load', count, 50)
  .option('--trials <n>', 'single-check trials of lateness and alert latency', count, 10)
  .option('--recovery-checks <n>', 'checks due in the same instant in each fault of the recovery phase', count, 300)
  .option('--mass-trials <n>', 'mass downs (all checks due in the same instant) of the alerts phase, a minute apart', count, 3)
  .option('--window-checks <n>', 'checks down in the one maintenance window of the window phase', count, 10_000)
  .option('--window-lead <s>', 'seconds from their deadline to the window\'s end (time to go down and be held first)', count, 240)
  .option('--phases <list>', `comma-separated phases to run (${PHASES.join(',')})`, phases, [...PHASES])
  .option('--web-cpu <n>', 'CPU the web processes and the bare server are pinned to, or none', webCpu, defaultWebCpu())
  .option('--reference-url <url>', 'a Healthchecks running on 127.0.0.1 to put the same ping load on', localOrigin, process.env.REFERENCE_URL)
  .option('--reference-key <key>', 'a read-write API key of its project', process.env.REFERENCE_API_KEY)
  .option('--reference-server <text>', 'how it is served, for its row', process.env.REFERENCE_SERVER ?? 'server not given')
  .option('--reference-pid <n>', 'its server\'s master process, for CPU time per request', count, process.env.REFERENCE_PID ? Number(process.env.REFERENCE_PID) : undefined);
program.parse();
const opts = program.opts<{
  checks: number; scale: number; duration: number; connections: number; trials: number; massTrials: number; recoveryChecks: number; phases: Phase[]; webCpu: number | undefined;
  windowChecks: number; windowLead: number;
  referenceUrl?: string; referenceKey?: string; referenceServer: string; referencePid?: number;
}>();
if (opts.referenceUrl !== undefined && opts.referenceKey === undefined) program.error('--reference-url needs --reference-key (or REFERENCE_API_KEY)');
/** The reference under the same load, when one is given. */
const reference: Reference | undefined = opts.referenceUrl === undefined || opts.referenceKey === undefined
  ? undefined : { origin: opts.referenceUrl, apiKey: opts.referenceKey, pid: opts.referencePid };
const runs = (phase: Phase): boolean => opts.phases.includes(phase);

function withPath(uri: string, path: string): string {
  const url = new URL(uri);
  url.pathname = path;
  return url.toString();
}

const out = (line = ''): boolean => process.stdout.write(`${line}\n`);
const loadRow = (name: string, r: LoadResult, bare: LoadResult): string =>
  `| ${name} | ${Math.round(r.rps)} | ${r.p50Ms} | ${r.p99Ms} | ${r.requests} | ${r.non2xx + r.errors} | ${r.cpuUsPerRequest ?? '?'} | ${(r.rps / bare.rps).toFixed(3)} |`;
const summaryRow = (name: string, s: Summary): string => `| ${name} | ${s.count} | ${s.p50} | ${s.p99} | ${s.max} |`;

async function nPingsOf(ids: string[]): Promise<number> {
  const rows = await Check.find({ _id: { $in: ids } }, { nPings: 1 }).lean<{ nPings: number }[]>();
  return rows.reduce((sum, c) => sum + c.nPings, 0);
}

/** Polls `done` every 200 ms until it holds (true) or `timeoutMs` milliseconds pass (false). */
async function waitUntil(done: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/** The median of `values` (the mean of the two middle ones of an even count, rounded). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? Math.round((sorted[middle - 1] + sorted[middle]) / 2) : sorted[Math.floor(middle)];
}

/** Runs `measure` `trials` times, one after another, and pools the samples' values. */
async function trialsOf(trials: number, measure: () => Promise<Summary>): Promise<Summary> {
  const values: number[] = [];
  for (let i = 0; i < trials; i++) values.push((await measure()).max);
  return summarize(values);
}

/** A server process of the bench and where it answers. */
interface Served {
  child: Child;
  origin: string;
}

/**
 * The same load against the reference: as many checks made (and pinged once) through its API, the load, the
 * pings it stored (the sum of their n_pings, as for ours), then the checks deleted.
 */
async function measureReference(ref: Reference): Promise<{ result: LoadResult; stored: number }> {
  const uuids = await createReferenceChecks(ref, opts.checks, opts.connections);
  try {
    const before = await referenceNPings(ref, uuids);
    const result = await loadReference(ref, uuids.map((uuid) => `/ping/${uuid}`), { connections: opts.connections, durationS: opts.duration });
    return { result, stored: (await referenceNPings(ref, uuids)) - before };
  } finally {
    await deleteReferenceChecks(ref, uuids, opts.connections);
  }
}

/**
 * The throughput phase: the ping load against the web process as configured, then against bare node:http
 * (the ceiling), then against the journal-first web process (PING_ACK_MS=0: answered once in Redis, whatever
 * the database's speed), then against the reference when one is given, in one table with each server's CPU
 * time per request, with the pings stored against the 200s.
 *
 * @param web - The web process as configured, and its origin; `journalWeb` the journal-first one.
 * @returns The load against the configured web process.
 */
async function measureThroughput(web: Served, journalWeb: Served, paths: string[], ids: string[]): Promise<LoadResult> {
  const pinned = opts.webCpu === undefined ? 'unpinned' : `web processes and bare server pinned to CPU ${opts.webCpu}`;
  out(`ping throughput: ${opts.checks} checks, ${opts.connections} connections, ${opts.duration} s each, ${pinned}`);
  const shape = { connections: opts.connections, durationS: opts.duration };
  const before = await nPingsOf(ids);
  const service = await loadOf(web.child, web.origin, paths, shape);
  const stored = (await nPingsOf(ids)) - before;
  const ceiling = await startCeilingServer(await freePort(), opts.webCpu);
  const bare = await loadOf(ceiling.child, ceiling.origin, paths, shape);
  await ceiling.child.stop();
  // Each check pinged once first, and stored: the journal-first process knows them all, as one up for a while
  // does, so that none of the measured pings waits for MongoDB to say whether its check exists.
  const warmBefore = await nPingsOf(ids);
  await inBatches(paths, opts.connections, async (path) => void (await (await fetch(`${journalWeb.origin}${path}`)).text()));
  await waitUntil(async () => (await nPingsOf(ids)) - warmBefore >= paths.length, 60_000);
  const journalBefore = await nPingsOf(ids);
  const loadStarted = Date.now();
  const journaled = await loadOf(journalWeb.child, journalWeb.origin, paths, shape);
  const loadEnded = Date.now();
  const caughtUp = await waitUntil(async () => (await nPingsOf(ids)) - journalBefore >= journaled.ok, 600_000);
  /** Seconds from the end of the load until MongoDB had every ping answered from the journal. */
  const catchUpS = (Date.now() - loadEnded) / 1000;
  const journalStored = (await nPingsOf(ids)) - journalBefore;
  const ref = reference === undefined ? undefined : await measureReference(reference);
  out('| target | pings/s | p50 ms | p99 ms | requests | errors | CPU µs/request | ratio to bare node:http |\n|---|---|---|---|---|---|---|---|');
  out(loadRow('ping handler', service, bare));
  out(loadRow('ping handler, answered from the journal (PING_ACK_MS=0)', journaled, bare));
  out(loadRow('bare node:http', bare, bare));
  if (ref) out(loadRow(`reference Healthchecks (${opts.referenceServer})`, ref.result, bare));
  const [j, b] = [journaled.cpuUsPerRequest, bare.cpuUsPerRequest];
  // CPU per request is the process's own cost, whatever else shares its core: a ceiling the load may not reach.
  if (j && b) out(`one core's worth of CPU: ${Math.round(1e6 / j)} pings/s answered from the journal, ${Math.round(1e6 / b)} requests/s of bare node:http (ratio ${(b / j).toFixed(3)})`);
  // A request cut off when the load stops may be stored without its 200 having been counted: stored ≥ 200s.
  const missing = (n: number, ok: number): string => (n >= ok ? '' : ' (ACKNOWLEDGED PINGS MISSING)');
  out(`ping handler: 200 responses ${service.ok}; pings stored (sum of n_pings) ${stored}${missing(stored, service.ok)}`);
  out(`answered from the journal: 200 responses ${journaled.ok}; pings stored ${journalStored}${missing(journalStored, journaled.ok)}; `
    + `MongoDB caught up ${caughtUp ? `${catchUpS.toFixed(1)} s after the load ended` : 'NOT within 600 s'}`
    + (caughtUp ? ` (the worker applied them at ${Math.round(journalStored / ((loadEnded - loadStarted) / 1000 + catchUpS))} pings/s from the load's start)` : ''));
  out(`peak RSS (VmHWM) of the web processes: ${peakRssMbOf(web.child) ?? '?'} MB as configured, ${peakRssMbOf(journalWeb.child) ?? '?'} MB answering from the journal`);
  if (ref) {
    out(`reference Healthchecks: 200 responses ${ref.result.ok}; pings stored (sum of n_pings) ${ref.stored}${missing(ref.stored, ref.result.ok)}; `
      + `ping handler / reference: ${(service.rps / ref.result.rps).toFixed(2)}x pings/s, answered from the journal / reference: ${(journaled.rps / ref.result.rps).toFixed(2)}x`);
  }
  out();
  return service;
}

/** The window phase: `--window-checks` checks down in one maintenance window, measured from its end (scripts/bench/window.ts). */
async function reportWindowEnd(origin: string, apiKey: string, projectId: string, redis: Redis): Promise<void> {
  const queues = openQueues(redis, RUN);
  try {
    const n = opts.windowChecks;
    const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');
    const before = load();
    const w = await measureWindowEnd(origin, apiKey, projectId, queues, n, opts.windowLead);
    out(`maintenance window end: ${n} checks down in one window, milliseconds after the window's end (load average ${before} before, ${load()} after):`);
    out('| measure | checks | p50 | p99 | max |\n|---|---|---|---|---|');
    out(summaryRow('"resumed" alert owed (notification written)', w.owed));
    const missing = w.arrived < n ? ` (ONLY ${w.arrived} of ${n} within ${w.waitedS} s: figures of those)` : '';
    out(summaryRow(`webhook alert received${missing}`, w.alerts));
    out(`webhook requests: ${w.requests} for ${n} checks; checks alerted more than once: ${w.duplicates}; sent inside the window: ${w.insideWindow}\n`);
  } finally {
    await closeQueues(queues);
  }
}

async function main(): Promise<void> {
  const port = await freePort();
  const mongoUri = withPath(config.mongodbUri, `/${RUN}`);
  await connectDb(mongoUri);
  const redis = new Redis(config.redisUrl);
  const env = {
    MONGODB_URI: mongoUri, REDIS_URL: config.redisUrl, QUEUE_PREFIX: RUN, PORT: String(port), NODE_ENV: 'test',
    TEST_MIN_PERIOD_SECONDS: '1', LOG_LEVEL: 'warn', INTEGRATIONS_ALLOW_PRIVATE_IPS: 'true', PING_TIMEOUT_MS: '60000', BASE_URL: `http://127.0.0.1:${port}`,
  };
  // A second web process answers every ping as soon as it is journaled (PING_ACK_MS=0): the journal's capacity.
  const journalPort = await freePort();
  const children: Child[] = [
    startNode('dist/server/main.js', env, opts.webCpu),
    startNode('dist/workers/main.js', env),
    startNode('dist/server/main.js', { ...env, PORT: String(journalPort), PING_ACK_MS: '0' }, opts.webCpu),
  ];
  const origin = `http://127.0.0.1:${port}`;
  const journalOrigin = `http://127.0.0.1:${journalPort}`;
  try {
    await waitForHttp(`${origin}/api/v3/status/`, 30_000);
    await waitForHttp(`${journalOrigin}/api/v3/status/`, 30_000);
    const { project, apiKey } = await createProject({ name: 'bench', checkLimit: (10 + opts.massTrials) * opts.checks + opts.scale + opts.windowChecks });
    // Established checks (up, pinged before), as a deployment's pings mostly hit: a first ping also records a flip.
    const paths = await createChecks(project._id, opts.checks, { timeout: 86400, grace: 3600, status: 'up', lastPing: new Date() });
    const ids = paths.map((p) => p.split('/').pop()!);

    const [, hz] = (await redis.config('GET', 'hz'));
    out(`Redis hz: ${hz}${Number(hz) >= 100 ? '' : ' (below the required 100: deadlines fire up to 1000/hz ms late, see README "Redis settings")'}\n`);
    let service: LoadResult | undefined;
    if (runs('throughput')) service = await measureThroughput({ child: children[0], origin }, { child: children[2], origin: journalOrigin }, paths, ids);
    const shape = { connections: opts.connections, durationS: opts.duration };
    if (runs('scaleout')) await reportScaleOut({ env, paths, nPings: () => nPingsOf(ids), shape }, out);
    if (runs('lateness') || runs('alerts')) {
      out('deadline lateness and alert latency, milliseconds after each check\'s computed down moment:');
      out('| measure | checks | p50 | p99 | max |\n|---|---|---|---|---|');
    }
    if (runs('lateness')) {
      out(summaryRow(`flip stored, ${opts.checks} checks pinged at once (due within the pinging time)`, await measureLateness(origin, project._id, opts.checks)));
      out(summaryRow(`flip stored, one check alone (${opts.trials} trials)`, await trialsOf(opts.trials, () => measureLateness(origin, project._id, 1))));
    }
    if (runs('alerts')) {
      const masses: { flips: Summary; alerts: Summary }[] = [];
      for (let i = 1; i <= opts.massTrials; i++) {
        const together = await measureAlertLatency(origin, project._id, opts.checks);
        masses.push(together);
        const which = opts.massTrials > 1 ? ` (mass down ${i} of ${opts.massTrials})` : '';
        out(summaryRow(`flip stored, ${opts.checks} cron checks due in the same instant${which}`, together.flips));
        out(summaryRow(`webhook alert received, ${opts.checks} cron checks due in the same instant${which}`, together.alerts));
      }
      if (masses.length > 1) {
        out(`| median of the ${masses.length} mass downs' p99: flip stored / webhook alert received | ${opts.checks} | | ${median(masses.map((m) => m.flips.p99))} / ${median(masses.map((m) => m.alerts.p99))} | |`);
      }
      const single = await trialsOf(opts.trials, async () => (await measureAlertLatency(origin, project._id, 1, false)).alerts);
      out(`${summaryRow(`webhook alert received, one check alone (${opts.trials} trials)`, single)}\n`);
    }
    if (runs('recovery')) await reportRecovery(config.mongodbUri, `${RUN}_recovery`, opts.recoveryChecks, out);
    if (runs('drain')) await reportDrain(config.mongodbUri, config.redisUrl, redis, `${RUN}_drain`, out);
    if (runs('scale')) {
      out(`scale: ${opts.scale} active checks`);
      const queues = openQueues(redis, RUN);
      const scale = await measureScale(queues, redis, project._id, opts.scale);
      await closeQueues(queues);
      const scaled = await load(origin, scale.paths, { connections: opts.connections, durationS: opts.duration });
      out('| measure | value |\n|---|---|');
      out(`| setup (insert + schedule), s | ${(scale.setupMs / 1000).toFixed(1)} |`);
      out(`| Redis bytes per check (its one delayed deadline job) | ${Math.round(scale.redisBytesPerCheck)} |`);
      out(`| sweep pass, ms (deadlines re-added: ${scale.sweepDeadlines}) | ${scale.sweepMs} |`);
      out(`| ping p50 / p99 ms, pings/s, at ${opts.scale} checks | ${scaled.p50Ms} / ${scaled.p99Ms}, ${Math.round(scaled.rps)} |`);
      out(`| ping p50 at ${opts.checks} checks (above) | ${service ? service.p50Ms : 'not measured (throughput phase not run)'} |`);
    }
    if (runs('window')) await reportWindowEnd(origin, apiKey, project._id, redis);
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await mongoose.connection.dropDatabase();
    await disconnectDb();
    const keys = await redis.keys(`${RUN}:*`);
    for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000));
    redis.disconnect();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
