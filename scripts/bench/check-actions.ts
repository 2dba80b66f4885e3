/**
 * The `pages` bench phase's measurements of a check's actions and the zone switcher (server/pages/checks/check-actions.ts, zone.ts): server time of
 * sequential requests over HTTP to the web process, as p50/p95 in milliseconds.
 * - `GET <check>/?tz=check`: the check page with its actions and a zone chosen (pageData, zone switcher, times in the check's zone);
 * - `POST <check>/ping` (Ping now): a real ping through the Pinging API's path, then the redirect (not followed);
 * - `GET /account/`: the account page with its list of every tz database zone.
 * The check is inserted directly in the database (a bench's seed), with its history of pings as the phase left it.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Check } from '../../shared/models/check.js';
import type { PagesStage } from './pages-stage.js';

/** The p-th percentile (nearest rank) of a sample in milliseconds. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Times the stage's `requests` sequential requests made by `send` (each must answer `status`) and writes "label: p50 … ms, p95 … ms".
 * @throws Error when a request answers another status.
 */
async function measure(stage: PagesStage, label: string, status: number, send: () => Promise<Response>): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < stage.requests; i++) {
    const started = performance.now();
    const res = await send();
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== status) throw new Error(`${label}: answered ${res.status}, not ${status}`);
  }
  times.sort((a, b) => a - b);
  stage.out(`${label}: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms (${stage.requests} sequential requests)`);
}

/** Measures the check page with its actions and a zone chosen, Ping now, and the account page; writes one line each. */
export async function reportCheckActions(stage: PagesStage): Promise<void> {
  const id = randomUUID();
  await Check.create({ _id: id, projectId: stage.projectId, badgeKey: randomUUID(), created: new Date(), name: 'bench actions', kind: 'cron', schedule: '0 3 * * *', tz: 'Asia/Tokyo' });
  const one = `${stage.origin}/projects/${stage.projectId}/checks/${id}/`;
  const headers = { cookie: stage.cookie };
  const page = await (await fetch(one, { headers })).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!csrf) throw new Error('no CSRF token on the check page: is the session signed in?');
  stage.out('Check actions and zones (server time over HTTP, sequential):');
  await measure(stage, '  check page ?tz=check', 200, () => fetch(`${one}?tz=check`, { headers }));
  const form = { ...headers, 'content-type': 'application/x-www-form-urlencoded' };
  await measure(stage, '  Ping now (POST, 303)', 303, () => fetch(`${one}ping`, { method: 'POST', headers: form, body: `_csrf=${csrf}`, redirect: 'manual' }));
  await measure(stage, '  account page', 200, () => fetch(`${stage.origin}/account/`, { headers }));
}
