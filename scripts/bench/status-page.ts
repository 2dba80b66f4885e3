/**
 * The bench's `status-page` phase (docs/benchmarks.md, "Public status pages (the `status-page` phase)"): a published page of {@link COMPONENTS}
 * components ({@link SECTIONS} sections of checks) over 90 days of stored flips, served by a web process of its own (dist/server/main.js, the
 * real createWebHandler; no worker: the web process that records a ping's flip also completes it and announces it to the status pages'
 * change stream). It prints, against its targets (that section of docs/benchmarks.md):
 *
 * 1. the page's throughput with the cache warm: autocannon for `--status-duration` seconds over {@link CONNECTIONS} connections, asking for
 *    gzip as browsers do, with the web process's CPU time and the bytes read per response; then the same load on the same CPU against a
 *    minimal Express application and a bare node:http server answering the same bytes (what the framework and the machine allow);
 * 2. the first render after a flip: a real flip (a fail or a success ping to the same web process, alternately, each after a random pause
 *    of up to {@link READ_CYCLE_MS} ms), then GETs of the page one after another; the first one showing the new overall status is the one
 *    that computed the page again, and its time is the figure;
 * 3. how soon a flip shows: from the ping's answer to the first GET of `status.json`, one every {@link POLL_MS} ms, giving the component's new
 *    state, down (`outage`) and up again (`operational`).
 *
 * Then, to tell the database's part from the web process's, in the bench's own process and each alone: a snapshot
 * (server/status/snapshot.ts), its flips query, the 50 histories (pure) and the HTML rendered and gzipped (server/status/render.ts); and the
 * machine's load average before and after.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '../../shared/config.js';
import { Flip, type FlipDoc } from '../../shared/models/flip.js';
import { StatusPage, type StatusPageDoc } from '../../shared/models/status-page.js';
import { createProject } from '../../shared/services/projects.js';
import { historyDays, historyOf } from '../../shared/domain/status-page.js';
import { computeSnapshot, HISTORY_MS } from '../../server/status/snapshot.js';
import { outputOf } from '../../server/status/render.js';
import { idsOf, type Out } from './common.js';
import { createChecks } from './lateness.js';
import type { BenchOptions } from './options.js';
import { schedOfPid, startNode, startWeb, waitForHttp, type Child, type Served } from './processes.js';
import { summarize, type Summary } from './stats.js';
import { loadOf, startCeilingServer, type LoadOptions, type LoadResult } from './throughput.js';
import { freePort } from '../local-services.js';

const SECTIONS = 5;
const PER_SECTION = 10;
const COMPONENTS = SECTIONS * PER_SECTION;
/** Down spells stored per check over the 90 days (each a down flip and an up flip). */
const DOWN_SPELLS = 6;
/** Concurrent connections of the load. */
const CONNECTIONS = 10;
/** Milliseconds between two GETs of `status.json` while waiting for a flip to show. */
const POLL_MS = 50;
/**
 * Milliseconds between two reads of the change stream by a web process's cache (server/status/cache.ts): each flip is pinged after a random
 * pause up to this long, so that pings fall anywhere in that cycle instead of in step with it.
 */
const READ_CYCLE_MS = 500;
/** Milliseconds a flip may take to show before the phase gives up (the cache's own age limit is 15 s). */
const GIVE_UP_MS = 30_000;
const SLUG = 'bench';
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The targets: requests per second and p99 milliseconds of the warm page, first render and flip shown in milliseconds. */
const TARGETS = { rps: 2000, p99Ms: 50, firstRenderMs: 100, shownMs: 2000 };

/** The stored flips of check `i`: {@link DOWN_SPELLS} down spells of 5 minutes to 2 hours, spread over the last 88 days, each ended. */
function flipsOf(checkId: string, i: number, now: number): Partial<FlipDoc>[] {
  return Array.from({ length: DOWN_SPELLS }, (_, j) => {
    const down = new Date(now - (j * 15 + 1 + (i % 13)) * DAY_MS + ((i * 37 + j * 11) % 24) * HOUR_MS);
    const up = new Date(down.getTime() + (5 + ((i * 7 + j * 13) % 115)) * 60_000);
    return [
      { checkId, created: down, recorded: down, processed: down, oldStatus: 'up' as const, newStatus: 'down' as const, reason: 'timeout' as const },
      { checkId, created: up, recorded: up, processed: up, oldStatus: 'down' as const, newStatus: 'up' as const, reason: '' as const },
    ];
  }).flat();
}

/**
 * Seeds a project with {@link COMPONENTS} up checks, their flips and a published public page at `/status/bench/` showing them all.
 * @returns The checks' ping paths (`/ping/<uuid>`), in the page's order, and the page.
 */
async function seedPage(): Promise<{ paths: string[]; page: StatusPageDoc }> {
  const now = Date.now();
  const { project } = await createProject({ name: 'bench status page', checkLimit: COMPONENTS });
  const paths = await createChecks(project._id, COMPONENTS, { timeout: 86_400, grace: 3600, status: 'up', lastPing: new Date(now) });
  const ids = idsOf(paths);
  await Flip.insertMany(ids.flatMap((id, i) => flipsOf(id, i, now)));
  const sections = Array.from({ length: SECTIONS }, (_, s) => ({
    name: `Section ${s + 1}`,
    components: ids.slice(s * PER_SECTION, (s + 1) * PER_SECTION).map((checkId, c) => ({ checkId, name: `Service ${s + 1}.${c + 1}` })),
  }));
  const page = await StatusPage.create({
    _id: randomUUID(), projectId: project._id, slug: SLUG, title: 'Bench status', description: 'Every job of the bench.', tz: 'UTC',
    published: true, visibility: 'public', sections, created: new Date(now), updated: new Date(now),
  });
  return { paths, page: page.toObject<StatusPageDoc>() };
}

/**
 * GETs `url` (fetch asks for gzip, as browsers do) and reads its whole body.
 * @returns Milliseconds to the body's end, the body (decoded) and the answer's Content-Length.
 * @throws Error when the answer is not 200.
 */
async function get(url: string, headers: Record<string, string> = {}): Promise<{ ms: number; body: string; length: number }> {
  const begin = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.text();
  const ms = performance.now() - begin;
  if (res.status !== 200) throw new Error(`status-page: GET ${url} answered ${res.status}`);
  return { ms, body, length: Number(res.headers.get('content-length') ?? Buffer.byteLength(body)) };
}

/**
 * Pings the check at `path` (a fail ping when `fail`) after a random pause of up to {@link READ_CYCLE_MS}.
 * @returns When its answer arrived (performance.now(), milliseconds).
 * @throws Error when the ping is not answered 200.
 */
async function ping(origin: string, path: string, fail: boolean): Promise<number> {
  await sleep(Math.random() * READ_CYCLE_MS);
  const res = await fetch(`${origin}${path}${fail ? '/fail' : ''}`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`status-page: ping answered ${res.status}`);
  return performance.now();
}

/**
 * GETs `url` until `shows` holds for its body, `everyMs` apart (0: back to back).
 * @returns The last GET's time and when it ended (performance.now(), milliseconds).
 * @throws Error when it does not hold within {@link GIVE_UP_MS}.
 */
async function getUntil(url: string, shows: (body: string) => boolean, everyMs: number): Promise<{ ms: number; at: number }> {
  const until = performance.now() + GIVE_UP_MS;
  while (performance.now() < until) {
    const { ms, body } = await get(url);
    if (shows(body)) return { ms, at: performance.now() };
    if (everyMs > 0) await sleep(everyMs);
  }
  throw new Error(`status-page: ${url} did not show the flip within ${GIVE_UP_MS} ms`);
}

/**
 * Flips the check at `path` `repetitions` times (down, up, down, …) and GETs the page back to back after each ping's answer.
 * @returns Milliseconds of the first GET showing the new overall status (it computed the page again), and from the ping's answer to its end.
 */
async function firstRenders(origin: string, path: string, repetitions: number): Promise<{ render: Summary; shown: Summary }> {
  const render: number[] = [];
  const shown: number[] = [];
  for (let i = 0; i < repetitions; i++) {
    const fail = i % 2 === 0;
    const answered = await ping(origin, path, fail);
    // One component of 50 down: a partial outage.
    const marker = `overall-${fail ? 'partial' : 'operational'}"`;
    const seen = await getUntil(`${origin}/status/${SLUG}/`, (html) => html.includes(marker), 0);
    render.push(seen.ms);
    shown.push(seen.at - answered);
  }
  return { render: summarize(render), shown: summarize(shown) };
}

/** The state `status.json` gives the component named `name` (undefined when absent). */
function stateIn(json: string, name: string): string | undefined {
  const status = JSON.parse(json) as { sections: { components: { name: string; status: string }[] }[] };
  return status.sections.flatMap((s) => s.components).find((c) => c.name === name)?.status;
}

/**
 * Flips the check at `path` (the component `name`) down and up `repetitions` times each, polling `status.json` every {@link POLL_MS} ms.
 * @returns Milliseconds from each ping's answer to the end of the first GET giving the new state, down and up.
 */
async function flipsShown(origin: string, path: string, name: string, repetitions: number): Promise<{ down: Summary; up: Summary }> {
  const down: number[] = [];
  const up: number[] = [];
  for (let i = 0; i < repetitions * 2; i++) {
    const fail = i % 2 === 0;
    const answered = await ping(origin, path, fail);
    const seen = await getUntil(`${origin}/status/${SLUG}/status.json`, (json) => stateIn(json, name) === (fail ? 'outage' : 'operational'), POLL_MS);
    (fail ? down : up).push(seen.at - answered);
  }
  return { down: summarize(down), up: summarize(up) };
}

/** Milliseconds of `runs` sequential calls of `fn`, in the bench's own process. */
async function timed(runs: number, fn: () => Promise<unknown>): Promise<Summary> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const begin = performance.now();
    await fn();
    times.push(performance.now() - begin);
  }
  return summarize(times);
}

const ms = (n: number): string => n.toLocaleString('en', { maximumFractionDigits: 1 });
const verdict = (met: boolean): string => (met ? 'met' : 'NOT met');
const row = (what: string, s: Summary, target = ''): string => `| ${what} | ${s.count} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.max)} | ${target} |`;
/**
 * A load's row. The server's CPU share is the part of one core it used during the load (below 1: it waited for its core, which it shares
 * with other work); "per core" is what one whole core would answer at the CPU time per request measured.
 */
const loadRow = (what: string, r: LoadResult, target: string): string => {
  const cpu = r.cpuUsPerRequest;
  const [share, perCore] = cpu ? [((cpu * r.rps) / 1e6).toFixed(2), Math.round(1e6 / cpu).toLocaleString('en')] : ['?', '?'];
  return `| ${what} | ${Math.round(r.rps).toLocaleString('en')} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx} | ${r.errors} | ${cpu ?? '?'} | ${share} | ${perCore} | ${r.bytesPerResponse.toLocaleString('en')} | ${target} |`;
};
const loadAverage = (): string => loadavg().map((n) => n.toFixed(2)).join(' ');

/**
 * A minimal Express 5 application answering `/status/<slug>/` with $BODY_BYTES bytes and the headers in $HEADERS (JSON), as the page's route does
 * (server/status/routes.ts `sendOutput`): what Express alone costs for the same answer (CommonJS for `node -e`, run from the checkout).
 */
const EXPRESS_SERVER = `const express = require('express');
const body = Buffer.alloc(Number(process.env.BODY_BYTES), 120);
const headers = JSON.parse(process.env.HEADERS);
const app = express();
app.set('etag', false);
app.get('/status/:slug/', (req, res) => {
  res.set(headers);
  if (req.fresh) return void res.status(304).end();
  res.send(body);
});
app.listen(Number(process.env.PORT), '127.0.0.1');`;

/** Headers a server sets itself, left out of those the Express stand-in copies. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/**
 * Loads a server started by `start` (its process, answering `/status/<slug>/` at an origin) with `shape`, then stops it.
 * @throws Error when it does not answer within 10 s.
 */
async function loadOther(start: (port: number) => Promise<{ child: Child; origin: string }>, shape: LoadOptions): Promise<LoadResult> {
  const other = await start(await freePort());
  return loadOf(other.child, other.origin, [`/status/${SLUG}/`], shape).finally(() => other.child.stop());
}

/**
 * Measurement 1 (see the top): the warm page under load, then the same load on the same CPU against a minimal Express application answering
 * the same bytes and headers, and against a bare node:http server answering as many bytes (the machine's ceiling for that answer); and the
 * bodies' sizes. Prints them.
 */
async function reportLoad(web: Served, opts: BenchOptions, out: Out): Promise<void> {
  const url = `${web.origin}/status/${SLUG}/`;
  await get(url);
  const shape = { connections: CONNECTIONS, durationS: opts.statusDuration, headers: { 'accept-encoding': 'gzip' } };
  const sched = () => schedOfPid(web.child.process.pid);
  const [before, begin] = [sched(), performance.now()];
  const page = await loadOf(web.child, web.origin, [`/status/${SLUG}/`], shape);
  const [after, wallMs] = [sched(), performance.now() - begin];
  const res = await fetch(url);
  const length = Number(res.headers.get('content-length'));
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !OWN_HEADERS.has(name)));
  await res.arrayBuffer();
  const express = await loadOther(async (port) => {
    const child = startNode(['-e', EXPRESS_SERVER], { PORT: String(port), BODY_BYTES: String(length), HEADERS: JSON.stringify(headers) }, opts.webCpu);
    const origin = `http://127.0.0.1:${port}`;
    await waitForHttp(`${origin}/status/${SLUG}/`, 10_000).catch(async (err: unknown) => {
      await child.stop();
      throw err;
    });
    return { child, origin };
  }, shape);
  const bare = await loadOther((port) => startCeilingServer(port, opts.webCpu, length), shape);
  const met = page.rps >= TARGETS.rps && page.p99Ms <= TARGETS.p99Ms;
  out('| load, cache warm | requests/s | p50 ms | p99 ms | non-2xx | errors | CPU µs/request | CPU share | per core/s | bytes/response | target |\n|---|---|---|---|---|---|---|---|---|---|---|');
  out(loadRow(`GET /status/${SLUG}/ (gzip), ${CONNECTIONS} connections, ${opts.statusDuration} s`, page, `≥ ${TARGETS.rps.toLocaleString('en')}/s, p99 ≤ ${TARGETS.p99Ms}: ${verdict(met)}`));
  out(loadRow('minimal Express 5 route, same bytes and headers, same load', express, `ratio ${(page.rps / express.rps).toFixed(2)}`));
  out(loadRow(`bare node:http answering ${length.toLocaleString('en')} bytes, same load (the ceiling)`, bare, `ratio ${(page.rps / bare.rps).toFixed(2)}`));
  const [onCpu, waited] = before && after
    ? [after.onCpuMs - before.onCpuMs, after.waitMs - before.waitMs].map((n) => String(Math.round((n * 100) / wallMs)))
    : ['?', '?'];
  out(`the web process's main thread during its load: on a CPU ${onCpu} % of the time, waiting for one ${waited} % (runnable, not running), idle the rest`);
  const sizes: string[] = [];
  for (const [what, path] of [['page', ''], ['status.json', 'status.json'], ['feed.atom', 'feed.atom'], ['badge.svg', 'badge.svg']]) {
    const [gzip, plain] = [await get(url + path), await get(url + path, { 'accept-encoding': 'identity' })];
    sizes.push(`${what} ${plain.length.toLocaleString('en')} (gzip ${gzip.length.toLocaleString('en')})`);
  }
  out(`bodies, bytes: ${sizes.join(', ')}`);
}

/**
 * Measurements 2 and 3 (see the top), the cached page's time beside them, and where a first render's time goes (the snapshot, its flips query
 * and the HTML, each alone in the bench's process); prints them.
 */
async function reportFlips(web: Served, seeded: { paths: string[]; page: StatusPageDoc }, opts: BenchOptions, out: Out): Promise<void> {
  const { paths, page } = seeded;
  const runs = opts.statusRepetitions;
  const cached = await timed(runs, () => get(`${web.origin}/status/${SLUG}/`));
  const { render, shown } = await firstRenders(web.origin, paths[0], runs);
  const flips = await flipsShown(web.origin, paths[0], page.sections[0].components[0].name, runs);
  const snapshot = await timed(runs, () => computeSnapshot(page, new Date()));
  const ids = idsOf(paths);
  const flipsQuery = await timed(runs, () => Flip.find({ checkId: { $in: ids }, created: { $gte: new Date(Date.now() - HISTORY_MS - DAY_MS) } }, { checkId: 1, created: 1, oldStatus: 1, newStatus: 1 }).lean());
  const stored = await Flip.find({ checkId: { $in: ids } }).lean<FlipDoc[]>();
  const histories = await timed(runs, () => {
    const days = historyDays(new Date(), 'UTC');
    return Promise.resolve(ids.map((id) => historyOf(stored.filter((f) => f.checkId === id), 'up', days)));
  });
  const computed = await computeSnapshot(page, new Date());
  const html = await timed(runs, () => Promise.resolve(outputOf({ page, snapshot: computed, outputs: new Map(), pageRead: Date.now() }, 'html', config.baseUrl)));
  out('| after a flip, ms | n | p50 | p95 | max | target |\n|---|---|---|---|---|---|');
  out(row('cached page, sequential GETs (for comparison)', cached));
  out(row('first render after a flip (the GET that computes the page again)', render, `≤ ${TARGETS.firstRenderMs}: ${verdict(render.p95 <= TARGETS.firstRenderMs)} (p95)`));
  out(row('new overall status on the page, from the ping\'s answer (GETs back to back)', shown));
  out(row(`component down in status.json, from the /fail ping's answer (a GET every ${POLL_MS} ms)`, flips.down, `≤ ${ms(TARGETS.shownMs)}: ${verdict(flips.down.max <= TARGETS.shownMs)} (max)`));
  out(row('component up again in status.json, from the success ping\'s answer', flips.up, `≤ ${ms(TARGETS.shownMs)}: ${verdict(flips.up.max <= TARGETS.shownMs)} (max)`));
  out(row('one snapshot computed alone (bench process, same database)', snapshot));
  out(row(`its flips query alone (${COMPONENTS} checks, 90 days)`, flipsQuery));
  out(row(`its ${COMPONENTS} histories computed alone (pure: shared/domain/status-page.ts)`, histories));
  out(row('its HTML rendered, hashed and gzipped alone (bench process)', html));
}

/**
 * Runs the phase: seeds the page in the bench's database (the caller's connection), starts a web process with `env` (as the pages phase's:
 * outside production its templates are compiled on each render, about 0.2 ms for the page's), measures and prints.
 * @param opts - `webCpu` pins the web process (undefined: unpinned); `statusDuration` (seconds) and `statusRepetitions` size the measurements.
 * @throws Error when an answer is not 200 or a flip does not show within {@link GIVE_UP_MS}.
 */
export async function reportStatusPage(env: Record<string, string>, opts: BenchOptions, out: Out): Promise<void> {
  const before = loadAverage();
  const seeded = await seedPage();
  const web = await startWeb(env, opts.webCpu);
  try {
    const pinned = opts.webCpu === undefined ? 'unpinned' : `pinned to CPU ${opts.webCpu}`;
    out(`status page: ${COMPONENTS} components (${SECTIONS} sections of ${PER_SECTION} checks), ${COMPONENTS * DOWN_SPELLS * 2} stored flips over 90 days, web process ${pinned}; load average ${before} before:`);
    await reportLoad(web, opts, out);
    await reportFlips(web, seeded, opts, out);
    out(`load average ${loadAverage()} after`);
    out('');
  } finally {
    await web.child.stop();
  }
}
