/**
 * The drain after a burst (docs/operations.md, "Failure and recovery"; as test/faults/burst-pause.test.ts does, with figures instead of
 * assertions): 200 clients ping 20 established checks for 10 s while the database process is paused (SIGSTOP),
 * then it resumes and the load ends; measured are the time from the load's end until every acknowledged ping is
 * visible in the API (the sum of `n_pings` in `GET /api/v3/checks/`), the rate the worker applied them at, and the
 * web process's peak RSS. Web and worker run with the shipped settings.
 *
 * The paused database is the bench's own embedded database (scripts/bench/own-database.ts), never a shared process.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import mongoose from 'mongoose';
import type { Redis } from 'ioredis';
import { Check } from '../../shared/models/check.js';
import { freePort } from '../local-services.js';
import { removeKeys, waitUntil } from './common.js';
import { insertProject, startOwnDatabase } from './own-database.js';
import { peakRssMbOf, startWatched, startWorker, waitForHttp, type WatchedChild } from './processes.js';

/** Concurrent clients, checks they ping, and how long the database is paused, milliseconds (as the fault test). */
const CLIENTS = 200;
const CHECKS = 20;
const PAUSE_MS = 10_000;
/** How long the drain may take before the phase gives up, milliseconds. */
const DRAIN_WITHIN_MS = 600_000;

/** What the burst and the drain measured. */
export interface DrainResult {
  backend: string;
  /** Pings answered 200 (the warm-up's one per check included), and answers by status. */
  acknowledged: number;
  statuses: Record<number, number>;
  /** Sum of n_pings in the API when the load ended. */
  visibleAtEnd: number;
  /** Milliseconds from the load's end until the API showed every acknowledged ping; undefined when not within 600 s. */
  drainMs?: number;
  /** Pings made visible per second from the load's end until then. */
  applyRate?: number;
  /** The web process's peak RSS (VmHWM), megabytes. */
  webPeakRssMb?: number;
}

/** The sum of `n_pings` of the project's checks, as the Management API shows it. */
async function visiblePings(origin: string, apiKey: string): Promise<number> {
  const res = await fetch(`${origin}/api/v3/checks/`, { headers: { 'X-Api-Key': apiKey }, signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`GET /api/v3/checks/: HTTP ${res.status}`);
  const body = (await res.json()) as { checks: { n_pings: number }[] };
  return body.checks.reduce((sum, c) => sum + c.n_pings, 0);
}

/** A project with a read-write API key and `CHECKS` new checks in the database at `uri`; returns the key and the check UUIDs. */
async function seed(uri: string): Promise<{ apiKey: string; ids: string[] }> {
  const own = await mongoose.createConnection(uri).asPromise();
  try {
    const { projectId, apiKey } = await insertProject(own, 'bench drain', CHECKS);
    const ids = Array.from({ length: CHECKS }, () => randomUUID());
    await own.model(Check.modelName, Check.schema).insertMany(ids.map((_id, i) => ({ _id, projectId, badgeKey: randomUUID(), created: new Date(), name: `drain-${i}` })));
    return { apiKey, ids };
  } finally {
    await own.close();
  }
}

/**
 * Runs the burst with the database paused and measures the drain.
 *
 * @param redis - A connection to the bench's Redis, to remove the phase's keys (`<prefix>:*`) at the end.
 * @throws Error when the phase's database, web or worker process does not start.
 */
export async function measureDrain(redisUrl: string, redis: Redis, prefix: string): Promise<DrainResult> {
  const db = await startOwnDatabase();
  const children: WatchedChild[] = [];
  try {
    const uri = `${db.uri}hc_drain`;
    const { apiKey, ids } = await seed(uri);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const env = { MONGODB_URI: uri, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, LOG_LEVEL: 'info', BASE_URL: origin };
    const web = startWatched('dist/server/main.js', { ...env, PORT: String(port) });
    children.push(web);
    children.push(await startWorker(env));
    await waitForHttp(`${origin}/api/v3/status/`, 60_000);
    // Every check pinged once first: known to the web process, as checks pinged regularly are.
    for (const id of ids) if ((await fetch(`${origin}/ping/${id}`)).status !== 200) throw new Error('warm-up ping refused');

    let acknowledged = ids.length;
    const statuses: Record<number, number> = {};
    let stop = false;
    const clients = Array.from({ length: CLIENTS }, async (_, i) => {
      for (let k = i; !stop; k += CLIENTS) {
        const res = await fetch(`${origin}/ping/${ids[k % CHECKS]}`, { signal: AbortSignal.timeout(30_000) }).catch(() => null);
        if (!res) continue;
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status === 200) acknowledged++;
      }
    });
    db.signal('SIGSTOP');
    await sleep(PAUSE_MS);
    db.signal('SIGCONT');
    stop = true;
    await Promise.all(clients);
    const loadEnded = Date.now();
    const visibleAtEnd = await visiblePings(origin, apiKey);
    const drained = await waitUntil(async () => (await visiblePings(origin, apiKey)) >= acknowledged, loadEnded + DRAIN_WITHIN_MS - Date.now());
    const drainMs = drained ? Date.now() - loadEnded : undefined;
    const applyRate = drainMs === undefined || drainMs === 0 ? undefined : Math.round(((acknowledged - visibleAtEnd) * 1000) / drainMs);
    return { backend: db.backend, acknowledged, statuses, visibleAtEnd, drainMs, applyRate, webPeakRssMb: peakRssMbOf(web) };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await db.stop();
    await removeKeys(redis, prefix);
  }
}
