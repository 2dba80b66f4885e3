/**
 * What the bench's phases share: the option parsers, the report's printer, requests a few at a time,
 * polling until something holds, and the names of the bench's own database and Redis keys.
 * Starting and stopping processes is in processes.ts.
 */
import { InvalidArgumentError } from 'commander';
import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { Check } from '../../shared/models/check.js';

/** Prints a line of the report. */
export type Out = (line?: string) => unknown;

/** The report's printer: one line on stdout. */
export const out: Out = (line = '') => process.stdout.write(`${line}\n`);

/**
 * An option that is a whole number above 0 (commander's parser).
 *
 * @throws InvalidArgumentError otherwise.
 */
export function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a whole number above 0');
  return n;
}

/**
 * An option that is a whole number, 0 included (commander's parser).
 *
 * @throws InvalidArgumentError otherwise.
 */
export function whole(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('a whole number');
  return n;
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function inBatches<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: limit }, async () => {
    while (next < items.length) await fn(items[next++]);
  });
  await Promise.all(lanes);
}

/**
 * Pings each of `paths` (`/ping/<uuid>`) once at `origin`, 50 at a time.
 *
 * @throws Error on an answer other than 2xx.
 */
export async function pingEach(origin: string, paths: string[]): Promise<void> {
  await inBatches(paths, 50, async (path) => {
    const res = await fetch(origin + path);
    if (!res.ok) throw new Error(`ping: HTTP ${res.status}`);
  });
}

/**
 * Polls `done` until it holds (true) or `timeoutMs` milliseconds pass (false).
 *
 * @param everyMs - Milliseconds between two polls.
 */
export async function waitUntil(done: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 200): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await done()) return true;
    await sleep(everyMs);
  }
  return false;
}

/** The check UUIDs of ping paths (`/ping/<uuid>`). */
export function idsOf(paths: readonly string[]): string[] {
  return paths.map((path) => path.split('/').pop()!);
}

/** The pings the checks `ids` have had (the sum of their `nPings`), through the default connection. */
export async function nPingsOf(ids: string[]): Promise<number> {
  const rows = await Check.find({ _id: { $in: ids } }, { nPings: 1 }).lean<{ nPings: number }[]>();
  return rows.reduce((sum, c) => sum + c.nPings, 0);
}

/** `uri` (a MongoDB URI) naming the database `name` instead of its own. */
export function databaseUri(uri: string, name: string): string {
  const url = new URL(uri);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Documents, deadline jobs or keys written per database or Redis round trip. */
export const PER_ROUND_TRIP = 1000;

/** `items` in slices of {@link PER_ROUND_TRIP}, in order. */
export function* slicesOf<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += PER_ROUND_TRIP) yield items.slice(i, i + PER_ROUND_TRIP);
}

/** Deletes the Redis keys under `prefix` (`<prefix>:*`). */
export async function removeKeys(redis: Redis, prefix: string): Promise<void> {
  for (const keys of slicesOf(await redis.keys(`${prefix}:*`))) await redis.del(...keys);
}
