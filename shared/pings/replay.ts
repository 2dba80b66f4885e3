/**
 * Replaying the ping journal (shared/pings/journal.ts): entries whose application to MongoDB failed, or was cut off by a kill -9 of their web
 * process, are applied again, and the pings a web process deferred are applied, by pages: one read of which pings are stored, one batch through
 * the check store, each check's pings in journal order. A ping found stored under its journal id is skipped; one its check counted but whose
 * document was not inserted (in the check's `recentPings`) only gets its document. A replayed ping is recorded at replay time.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Ping } from '../models/ping.js';
import { logger } from '../logger.js';
import { isDatabaseUnavailable } from '../unreachable.js';
import { config } from '../config.js';
import { journalKeys, journalRegistry, metaOf, PingJournal, type JournalEntry } from './journal.js';
import { resolverOf } from './resolve.js';
import { recordPings, type PingDeps, type PingItem } from './record.js';

const log = logger.child({ module: 'journal-replay' });

/** Entries read from a stream at a time. */
const PAGE = 10_000;
/** How long a worker holds a journal while replaying it, milliseconds (renewed on each page). */
const REPLAY_LOCK_MS = 60_000;
/** How often a worker looks for deferred pings, milliseconds. */
const DRAIN_POLL_MS = 100;
/** How long a worker waits after a failed replay (the database or Redis away), milliseconds. */
const RETRY_MS = 1_000;

/** Removes a replayed journal only if both streams are still empty (a paused process may have appended). */
const FORGET_IF_EMPTY = `
if redis.call('XLEN', KEYS[1]) == 0 and redis.call('XLEN', KEYS[2]) == 0 then
  redis.call('DEL', KEYS[1], KEYS[2])
  redis.call('SREM', KEYS[3], ARGV[1])
end
return 1`;

/** Deletes a lock only if it is still this holder's. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

/** The ping an entry names. */
function itemOf(entry: JournalEntry): PingItem {
  const meta = metaOf(entry);
  return { checkId: entry.checkId, resolve: resolverOf(entry.action, meta.method, meta.body), meta };
}

/**
 * Applies entries not yet stored, in one batch (each check's in order). When the batch fails for another reason than an unreachable database, the
 * entries are applied one by one, and one that still fails is dropped (it would always fail).
 *
 * @throws the first unreachable-database error (the entries stay for the next replay).
 */
export async function replayEntries(deps: PingDeps, entries: readonly JournalEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const stored = await Ping.find({ _id: { $in: entries.map((e) => e.id) } }, { _id: 1 }).lean();
  const storedIds = new Set(stored.map((p) => String(p._id)));
  const items = entries.filter((e) => !storedIds.has(e.id)).map(itemOf);
  try {
    await recordPings(deps, items);
  } catch (err) {
    if (isDatabaseUnavailable(err)) throw err;
    for (const item of items) {
      await recordPings(deps, [item]).catch((one: unknown) => {
        if (isDatabaseUnavailable(one)) throw one;
        log.error({ err: one, checkId: item.checkId }, 'cannot apply a journaled ping; dropped');
      });
    }
  }
}

/**
 * Replays the entries `wanted` selects from one stream, deleting each page once applied; `onPage` runs before each page (a lock's renewal).
 * @returns How many were replayed.
 * @throws the Redis or MongoDB error.
 */
export async function replayStream(deps: PingDeps, redis: Redis, stream: string, wanted: (entry: JournalEntry) => boolean, onPage?: () => Promise<unknown>): Promise<number> {
  let replayed = 0;
  let from = '-';
  for (;;) {
    await onPage?.();
    const rows = await redis.xrange(stream, from, '+', 'COUNT', PAGE);
    const picked = rows.flatMap(([id, fields]) => {
      const entry = JSON.parse(fields[1]) as JournalEntry;
      return wanted(entry) ? [{ id, entry }] : [];
    });
    await replayEntries(deps, picked.map((p) => p.entry));
    if (picked.length > 0) await redis.xdel(stream, ...picked.map((p) => p.id));
    replayed += picked.length;
    if (rows.length < PAGE) return replayed;
    from = `(${rows[rows.length - 1][0]}`;
  }
}

/** How old an entry of a live process's own journal must be to be replayed, milliseconds (younger ones may still be applying). */
const OWN_REPLAY_AFTER_MS = 5_000;

/** Replays a live process's own failed entries: older than {@link OWN_REPLAY_AFTER_MS}, not in flight. @throws the Redis or MongoDB error. */
export async function replayOwnJournal(journal: PingJournal, deps: PingDeps, redis: Redis): Promise<number> {
  const before = Date.now() - OWN_REPLAY_AFTER_MS;
  const count = await replayStream(deps, redis, journal.keys.stream, (e) => e.receivedMs < before && !journal.inFlight.has(e.id));
  if (count > 0) log.info({ count }, 'replayed pings whose application to MongoDB had failed');
  return count;
}

/** Opens a web process's journal and renews its lease, replaying its own failed entries each time. @throws the Redis error of the first renewal. */
export async function openPingJournal(redis: Redis, deps: PingDeps): Promise<PingJournal> {
  const journal = new PingJournal(redis, config.queuePrefix, config.pingJournalLeaseMs);
  await journal.start(() => replayOwnJournal(journal, deps, redis));
  return journal;
}

/**
 * Replays one web process's journal under a lock (one worker at a time, so its pings keep their order): a stopped process's (lease lapsed) whole,
 * then forgotten; a live process's deferred pings, once it has none of its own in progress (they came first).
 * @returns How many pings were applied; 0 when another worker holds the journal.
 * @throws the Redis or MongoDB error (what is left is replayed next time).
 */
async function replayJournal(deps: PingDeps, redis: Redis, prefix: string, instance: string): Promise<number> {
  const keys = journalKeys(prefix, instance);
  const alive = (await redis.exists(keys.alive)) === 1;
  if (alive && (await redis.xlen(keys.deferred)) === 0) return 0;
  if (alive && (await redis.xlen(keys.stream)) > 0) return 0;
  const lock = `${keys.stream}:replaying`;
  const token = randomUUID();
  if ((await redis.set(lock, token, 'PX', REPLAY_LOCK_MS, 'NX')) !== 'OK') return 0;
  try {
    const renew = () => redis.pexpire(lock, REPLAY_LOCK_MS);
    const own = alive ? 0 : await replayStream(deps, redis, keys.stream, () => true, renew);
    const deferred = await replayStream(deps, redis, keys.deferred, () => true, renew);
    if (!alive) {
      if (own + deferred > 0) log.info({ instance, count: own + deferred }, 'replayed the ping journal of a stopped web process');
      await redis.eval(FORGET_IF_EMPTY, 3, keys.stream, keys.deferred, journalRegistry(prefix), instance);
    }
    return own + deferred;
  } finally {
    await redis.eval(RELEASE, 1, lock, token);
  }
}

/**
 * Applies what every web process's journal holds for the workers: the deferred pings of live processes, and the whole journal of stopped ones.
 * @returns How many pings were applied.
 * @throws the Redis or MongoDB error (what is left is replayed next time).
 */
export async function replayJournalsOnce(deps: PingDeps, redis: Redis, prefix: string): Promise<number> {
  let replayed = 0;
  for (const instance of await redis.smembers(journalRegistry(prefix))) replayed += await replayJournal(deps, redis, prefix, instance);
  return replayed;
}

/**
 * Replays journals every {@link DRAIN_POLL_MS} (at once again after a pass that applied some, after {@link RETRY_MS} after a failed one).
 * @returns A stop function that waits for a pass under way.
 */
export function replayJournals(deps: PingDeps & { connection: Redis }): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const look = (): void => {
    running = replayJournalsOnce(deps, deps.connection, config.queuePrefix)
      .catch((err: unknown) => {
        log.warn({ err }, 'cannot replay the ping journals; trying again');
        return -1;
      })
      .then((count) => {
        if (!stopped) timer = setTimeout(look, count > 0 ? 0 : count < 0 ? RETRY_MS : DRAIN_POLL_MS);
      });
  };
  look();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
