/**
 * Deadline lateness: checks created through the API with timeout 2 s and
 * grace 1 s (the bench lowers the 60 s floor), each pinged once; the worker
 * must record each flip when its deadline passes. Lateness is the flip's
 * `recorded` time minus its `created` time, which is the computed going-down
 * moment (last ping + timeout + grace).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Flip } from '../../shared/models/flip.js';
import { summarize, type Summary } from './stats.js';

/** Bench check period, seconds. */
const TIMEOUT_S = 2;
/** Bench grace, seconds. */
const GRACE_S = 1;

/**
 * Runs `fn` over `items` with at most `limit` in flight.
 */
export async function inBatches<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: limit }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(lanes);
}

/**
 * Creates `count` checks through the Management API.
 *
 * @returns Their ping URLs' paths (`/ping/<uuid>`).
 */
export async function createChecks(origin: string, apiKey: string, count: number, body: object): Promise<string[]> {
  const paths: string[] = [];
  await inBatches(Array.from({ length: count }, (_, i) => i), 20, async (i) => {
    const res = await fetch(`${origin}/api/v3/checks/`, {
      method: 'POST',
      headers: { 'X-Api-Key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `bench-${i}`, ...body }),
    });
    if (res.status !== 201) throw new Error(`create check: HTTP ${res.status} ${await res.text()}`);
    const check = (await res.json()) as { ping_url: string };
    paths.push(new URL(check.ping_url).pathname);
  });
  return paths;
}

/**
 * Measures deadline lateness for `count` checks.
 *
 * @returns Lateness in milliseconds, and how many flips arrived.
 * @throws Error when not every check flipped within 60 s of its deadline.
 */
export async function measureLateness(origin: string, apiKey: string, count: number): Promise<Summary> {
  const paths = await createChecks(origin, apiKey, count, { timeout: TIMEOUT_S, grace: GRACE_S, tags: 'lateness' });
  const pinged = Date.now();
  await inBatches(paths, 50, async (path) => {
    const res = await fetch(origin + path);
    if (!res.ok) throw new Error(`ping: HTTP ${res.status}`);
  });
  const until = pinged + (TIMEOUT_S + GRACE_S) * 1000 + 60_000;
  const ids = paths.map((p) => p.split('/').pop()!);
  let flips: { created: Date; recorded: Date }[] = [];
  while (Date.now() < until) {
    flips = await Flip.find({ checkId: { $in: ids }, reason: 'timeout' }, { created: 1, recorded: 1 }).lean();
    if (flips.length >= count) break;
    await sleep(count === 1 ? 20 : 250);
  }
  if (flips.length < count) throw new Error(`only ${flips.length} of ${count} checks flipped`);
  return summarize(flips.map((f) => f.recorded.getTime() - f.created.getTime()));
}
