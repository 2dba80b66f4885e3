/**
 * The throughput phase's table (docs/benchmarks.md): the ping load against the web process as configured,
 * against bare node:http (the ceiling), against the journal-first web process, and against the reference when one
 * is given, each with its server's CPU time per request, and the pings stored against the 200s.
 */
import { freePort } from '../local-services.js';
import { inBatches, nPingsOf, waitUntil, type Out } from './common.js';
import type { BenchOptions } from './options.js';
import { peakRssMbOf, type Served } from './processes.js';
import { measureReference, type Reference } from './reference.js';
import { loadOf, startCeilingServer, type LoadResult } from './throughput.js';

/** What the phase loads: the two web processes, the checks' ping paths and their UUIDs. */
export interface ThroughputStage {
  /** The web process as configured. */
  web: Served;
  /** The web process answering every ping once journaled (PING_ACK_MS=0). */
  journalWeb: Served;
  paths: string[];
  ids: string[];
  reference: Reference | undefined;
}

const loadRow = (name: string, r: LoadResult, bare: LoadResult): string =>
  `| ${name} | ${Math.round(r.rps)} | ${r.p50Ms} | ${r.p99Ms} | ${r.requests} | ${r.non2xx + r.errors} | ${r.cpuUsPerRequest ?? '?'} | ${(r.rps / bare.rps).toFixed(3)} |`;

/** A request cut off when the load stops may be stored without its 200 having been counted: stored ≥ 200s. */
const missing = (n: number, ok: number): string => (n >= ok ? '' : ' (ACKNOWLEDGED PINGS MISSING)');

/**
 * Runs the phase and prints its table and lines.
 *
 * @returns The load against the configured web process (the scale phase compares its p50).
 */
export async function reportThroughput(stage: ThroughputStage, opts: BenchOptions, out: Out): Promise<LoadResult> {
  const { web, journalWeb, paths, ids } = stage;
  const pinned = opts.webCpu === undefined ? 'unpinned' : `web processes and bare server pinned to CPU ${opts.webCpu}`;
  out(`ping throughput: ${opts.checks} checks, ${opts.connections} connections, ${opts.duration} s each, ${pinned}`);
  const shape = { connections: opts.connections, durationS: opts.duration };
  const before = await nPingsOf(ids);
  const service = await loadOf(web.child, web.origin, paths, shape);
  // A ping that waited PING_ACK_MS (or past PING_ACK_BACKLOG) was answered from the journal and is applied after it: wait for those.
  await waitUntil(async () => (await nPingsOf(ids)) - before >= service.ok, 60_000);
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
  const ref = stage.reference === undefined ? undefined : await measureReference(stage.reference, opts.checks, shape);
  out('| target | pings/s | p50 ms | p99 ms | requests | errors | CPU µs/request | ratio to bare node:http |\n|---|---|---|---|---|---|---|---|');
  out(loadRow('ping handler', service, bare));
  out(loadRow('ping handler, answered from the journal (PING_ACK_MS=0)', journaled, bare));
  out(loadRow('bare node:http', bare, bare));
  if (ref) out(loadRow(`reference Healthchecks (${opts.referenceServer})`, ref.result, bare));
  const [j, b] = [journaled.cpuUsPerRequest, bare.cpuUsPerRequest];
  // CPU per request is the process's own cost, whatever else shares its core: a ceiling the load may not reach.
  if (j && b) out(`one core's worth of CPU: ${Math.round(1e6 / j)} pings/s answered from the journal, ${Math.round(1e6 / b)} requests/s of bare node:http (ratio ${(b / j).toFixed(3)})`);
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
