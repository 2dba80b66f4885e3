/**
 * Replaying the ping journal (shared/pings/journal.ts): entries whose application to MongoDB failed, or was cut off by a kill -9 of their web
 * process, are applied again, each check's in journal order. A ping found stored under its journal id is skipped; one its check counted but whose
 * document was not inserted (in the check's `recentPings`) only gets its document. A replayed ping is recorded at replay time.
 */
import type { Redis } from 'ioredis';
import { Ping } from '../models/ping.js';
import { logger } from '../logger.js';
import { isDatabaseUnavailable } from '../unreachable.js';
import { config } from '../config.js';
import { journalKeys, journalRegistry, metaOf, PingJournal, type JournalEntry } from './journal.js';
import { resolverOf } from './resolve.js';
import { recordPings, type PingDeps } from './record.js';

const log = logger.child({ module: 'journal-replay' });

/** Entries read from a stream at a time. */
const PAGE = 500;
/** How long a worker holds a dead journal while replaying it, milliseconds. */
const REPLAY_LOCK_MS = 60_000;

/** Removes a replayed journal only if still empty (a paused process may have appended), then the lock. */
const FORGET_IF_EMPTY = `
if redis.call('XLEN', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[2], ARGV[1])
end
redis.call('DEL', KEYS[3])
return 1`;

/** Applies one entry unless its ping is already stored (a counted one only gets its document: recordPings). */
async function applyEntry(deps: PingDeps, entry: JournalEntry): Promise<void> {
  const meta = metaOf(entry);
  if (await Ping.exists({ _id: meta._id })) return;
  await recordPings(deps, [{ checkId: entry.checkId, resolve: resolverOf(entry.action, meta.method, meta.body), meta }]);
}

/**
 * Applies entries, checks in parallel, each check's in order. An entry failing for another reason than an unreachable database would always fail: it
 * is dropped.
 *
 * @throws the first unreachable-database error (the entries stay for the next replay).
 */
export async function replayEntries(deps: PingDeps, entries: readonly JournalEntry[]): Promise<void> {
  const byCheck = new Map<string, JournalEntry[]>();
  for (const entry of entries) byCheck.set(entry.checkId, [...(byCheck.get(entry.checkId) ?? []), entry]);
  await Promise.all([...byCheck.values()].map(async (list) => {
    for (const entry of list) {
      await applyEntry(deps, entry).catch((err: unknown) => {
        if (isDatabaseUnavailable(err)) throw err;
        log.error({ err, checkId: entry.checkId }, 'cannot apply a journaled ping; dropped');
      });
    }
  }));
}

/** Replays the entries `wanted` selects from one stream, deleting each page once applied; returns how many. @throws the Redis or MongoDB error. */
export async function replayStream(deps: PingDeps, redis: Redis, stream: string, wanted: (entry: JournalEntry) => boolean): Promise<number> {
  let replayed = 0;
  let from = '-';
  for (;;) {
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
 * Replays, then removes, the journal of every web process whose lease lapsed; each journal is taken by one worker under a lock.
 *
 * @throws the Redis or MongoDB error (what is left is replayed next time).
 */
export async function replayDeadJournals(deps: PingDeps, redis: Redis, prefix: string): Promise<number> {
  let replayed = 0;
  for (const instance of await redis.smembers(journalRegistry(prefix))) {
    const keys = journalKeys(prefix, instance);
    const lock = `${keys.stream}:replaying`;
    if ((await redis.exists(keys.alive)) || (await redis.set(lock, '1', 'PX', REPLAY_LOCK_MS, 'NX')) !== 'OK') continue;
    const count = await replayStream(deps, redis, keys.stream, () => true);
    if (count > 0) log.info({ instance, count }, 'replayed the ping journal of a stopped web process');
    replayed += count;
    await redis.eval(FORGET_IF_EMPTY, 3, keys.stream, journalRegistry(prefix), lock, instance);
  }
  return replayed;
}

/** Looks for dead journals now and every half PING_JOURNAL_LEASE_MS; returns a stop function that waits for a replay under way. */
export function replayJournals(deps: PingDeps & { connection: Redis }): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const look = (): void => {
    running ??= replayDeadJournals(deps, deps.connection, config.queuePrefix)
      .catch((err: unknown) => log.error({ err }, "cannot replay a stopped web process's ping journal; trying again"))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(look, Math.floor(config.pingJournalLeaseMs / 2));
  look();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
