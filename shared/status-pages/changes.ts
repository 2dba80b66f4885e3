/**
 * What tells every web process's cache of status pages (server/status/cache.ts) that a page is out of date: a capped Redis stream of changed
 * checks (a flip, a deletion, a move) and changed pages (an edit, an incident). Writers append; each web process reads what is new twice a second.
 * Redis only wakes the caches: a lost entry leaves a page stale until its cache entry's age limit, never wrong in MongoDB.
 */
import type { Redis } from 'ioredis';
import { config } from '../config.js';

/** The stream's key, under QUEUE_PREFIX as every key of the service. */
const CHANGES_KEY = `${config.queuePrefix}:status-changes`;
/** About this many entries are kept; a reader further behind drops its whole cache. */
const KEEP = 10_000;

/** One change: a check's status, membership or existence, or a page's own content. */
export interface StatusChange {
  kind: 'check' | 'page';
  id: string;
}

/**
 * Appends changes to the stream (one round trip; none for an empty list).
 * @throws the Redis error.
 */
export async function announceChanges(redis: Redis, changes: readonly StatusChange[]): Promise<void> {
  if (changes.length === 0) return;
  const pipeline = redis.pipeline();
  for (const { kind, id } of changes) pipeline.xadd(CHANGES_KEY, 'MAXLEN', '~', KEEP, '*', kind, id);
  const results = (await pipeline.exec()) ?? [];
  const failed = results.find(([err]) => err);
  if (failed) throw failed[0] as Error;
}

/** Changes read from the stream after a cursor, and the new cursor; `reset` when the cursor fell out of the stream. */
export interface ChangesRead {
  cursor: string;
  changes: StatusChange[];
  reset: boolean;
}

/** The stream's newest id now (`0-0` when empty): a reader starts after it. @throws the Redis error. */
export async function changesCursor(redis: Redis): Promise<string> {
  const last = await redis.xrevrange(CHANGES_KEY, '+', '-', 'COUNT', 1);
  return last[0]?.[0] ?? '0-0';
}

/**
 * The changes after `cursor`, up to 1,000 at a time.
 * @throws the Redis error.
 */
export async function changesSince(redis: Redis, cursor: string): Promise<ChangesRead> {
  const entries = await redis.xrange(CHANGES_KEY, `(${cursor}`, '+', 'COUNT', 1000);
  const oldest = cursor === '0-0' ? null : await redis.xrange(CHANGES_KEY, '-', '+', 'COUNT', 1);
  // Trimmed past the cursor: some changes are lost, so the reader starts afresh.
  const reset = oldest !== null && oldest.length > 0 && compareIds(oldest[0][0], cursor) > 0;
  const changes = entries.map(([, fields]): StatusChange => ({ kind: fields[0] === 'page' ? 'page' : 'check', id: fields[1] }));
  return { cursor: entries.at(-1)?.[0] ?? cursor, changes, reset };
}

/** Orders two stream ids (`<ms>-<seq>`). */
function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am !== bm ? am - bm : as - bs;
}
