/**
 * The `pages` bench phase's measurements of the docs and the wall display (docs/benchmarks.md): server time of
 * `GET /docs/`, `GET /docs/benchmarks` (the largest doc, rendered from Markdown on each request), `GET /wall/`, and
 * the checks list seen by a wall display (its grant checked against the key on every request), each as p50/p95 in
 * milliseconds over {@link REQUESTS} sequential requests to 127.0.0.1 after {@link WARM_UP} untimed ones.
 */
import { createApiKey, revokeApiKey } from '../../shared/services/api-keys.js';
import type { PagesStage } from './pages-stage.js';


/** Timed requests per page. */
export const REQUESTS = 60;
/** Untimed requests first, per page. */
const WARM_UP = 5;
const NS_PER_MS = 1e6;

/** The nearest-rank `p`th percentile of ascending `sorted` milliseconds. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Milliseconds from sending a GET to reading its whole body, per request, one after another.
 * @throws Error when an answer is not 200 (the page under test is broken, not slow).
 */
async function timeGets(url: string, cookie: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + REQUESTS; i++) {
    const begin = process.hrtime.bigint();
    const res = await fetch(url, { headers: { cookie }, redirect: 'manual' });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
    if (i >= WARM_UP) times.push(Number(process.hrtime.bigint() - begin) / NS_PER_MS);
  }
  return times;
}

/** The cookie of a new wall display session on `projectId`, opened with `key` through the `/wall/` form. */
async function wallCookie(origin: string, key: string): Promise<string> {
  const form = await fetch(`${origin}/wall/`);
  const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0];
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const res = await fetch(`${origin}/wall/`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, key }).toString(),
    redirect: 'manual',
  });
  if (res.status !== 303) throw new Error(`POST /wall/: ${res.status}`);
  return (res.headers.get('set-cookie') ?? cookie).split(';')[0];
}

/** Measures the docs pages and the wall's checks list; prints one line per page (`p50`/`p95` ms over n requests). */
export async function benchDocsAndWall(stage: PagesStage): Promise<void> {
  const key = await createApiKey(stage.projectId, 'bench wall', true, new Date());
  try {
    const wall = await wallCookie(stage.origin, key.key);
    const pages: Array<[string, string, string]> = [
      ['docs list', '/docs/', stage.cookie],
      ['docs page (benchmarks.md)', '/docs/benchmarks', stage.cookie],
      ['wall form', '/wall/', ''],
      ['wall checks list', `/projects/${stage.projectId}/`, wall],
    ];
    for (const [name, path, cookie] of pages) {
      const sorted = (await timeGets(`${stage.origin}${path}`, cookie)).sort((a, b) => a - b);
      stage.out(`${name}: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms (${sorted.length} sequential GET ${path})`);
    }
  } finally {
    await revokeApiKey(stage.projectId, key.doc._id);
  }
}
