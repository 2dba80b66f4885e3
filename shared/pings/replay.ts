/**
 * Replaying the ping journal (shared/services/ping-journal.ts): entries whose
 * application to MongoDB failed, or was cut off by a kill -9 of their web
 * process, are applied again, each check's in journal order. A ping found
 * stored under its journal id is not stored again; the check is only moved to
 * it if it was left one short. A replayed ping is recorded at replay time.
 */
import type { Redis } from 'ioredis';
import { Ping, type PingDoc } from '../models/ping.js';
import { logger } from '../logger.js';
import { isDatabaseUnavailable } from '../unreachable.js';
import { config } from '../config.js';
import { journalKeys, journalRegistry, metaOf, PingJournal, type JournalEntry } from './ping-journal.js';
import { readSignalCheck } from './signal-check.js';
import { resolverOf } from './signal-resolve.js';
import { recordSignal, settleStored, type SignalDeps } from './signal.js';

const log = logger.child({ module: 'journal-replay' });

/** Entries read from a stream at a time. */
const PAGE = 500;
/** How long a worker holds a dead journal while replaying it, milliseconds. */
const REPLAY_LOCK_MS = 60_000;

/**
 * Removes a replayed journal and its registration only if it is still empty
 * (a web process that was merely paused may have appended since), then the lock.
 * KEYS: stream, registry, lock; ARGV: instance.
 */
const FORGET_IF_EMPTY = `
if redis.call('XLEN', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[2], ARGV[1])
end
redis.call('DEL', KEYS[3])
return 1`;

/** Applies one entry unless its ping is already stored. */
async function applyEntry(deps: SignalDeps, entry: JournalEntry): Promise<void> {
  const meta = metaOf(entry);
  const stored = await Ping.findById(meta._id, { body: 0 }).lean<PingDoc>();
  if (stored) {
    await settleStored(deps, stored);
    return;
  }
  const check = await readSignalCheck(entry.checkId);
  if (check) await recordSignal(deps, check, resolverOf(entry.action, meta.method, meta.body), meta);
}

/**
 * Applies entries: checks in parallel, each check's entries one after another
 * in the given order. An entry that fails for another reason than an
 * unreachable database would fail every time: it is logged and dropped.
 *
 * @throws the first unreachable-database error (the entries stay in the journal for the next replay).
 */
export async function replayEntries(deps: SignalDeps, entries: readonly JournalEntry[]): Promise<void> {
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

/**
 * Replays the entries of one journal stream that `wanted` selects, deleting each page once applied.
 *
 * @returns How many entries were replayed.
 * @throws the Redis or MongoDB error.
 */
export async function replayStream(deps: SignalDeps, redis: Redis, stream: string, wanted: (entry: JournalEntry) => boolean): Promise<number> {
  let replayed = 0;
  let from = '-';
  for (;;) {
    const rows = await redis.xrange(stream, from, '+', 'COUNT', PAGE);
    const picked = rows.flatMap(([id, fields]) => {
      const entry = JSON.parse(fields[1]!) as JournalEntry;
      return wanted(entry) ? [{ id, entry }] : [];
    });
    await replayEntries(deps, picked.map((p) => p.entry));
    if (picked.length > 0) await redis.xdel(stream, ...picked.map((p) => p.id));
    replayed += picked.length;
    if (rows.length < PAGE) return replayed;
    from = `(${rows[rows.length - 1]![0]}`;
  }
}

/** How old an entry of a live process's own journal must be to be replayed, milliseconds (younger ones may still be applying). */
const OWN_REPLAY_AFTER_MS = 5_000;

/**
 * Replays the entries of a live process's own journal whose application
 * failed: older than {@link OWN_REPLAY_AFTER_MS} and not being applied now.
 *
 * @returns How many entries were replayed.
 * @throws the Redis or MongoDB error.
 */
export async function replayOwnJournal(journal: PingJournal, deps: SignalDeps, redis: Redis): Promise<number> {
  const before = Date.now() - OWN_REPLAY_AFTER_MS;
  const count = await replayStream(deps, redis, journal.keys.stream, (e) => e.receivedMs < before && !journal.inFlight.has(e.id));
  if (count > 0) log.info({ count }, 'replayed pings whose application to MongoDB had failed');
  return count;
}

/**
 * Opens a web process's journal (QUEUE_PREFIX, PING_JOURNAL_LEASE_MS) and
 * starts renewing its lease, replaying its own failed entries at each renewal.
 *
 * @param redis - The web process's connection.
 * @param deps - Clock and queues, for the replays.
 * @throws the Redis error of the first renewal.
 */
export async function openPingJournal(redis: Redis, deps: SignalDeps): Promise<PingJournal> {
  const journal = new PingJournal(redis, config.queuePrefix, config.pingJournalLeaseMs);
  await journal.start(() => replayOwnJournal(journal, deps, redis));
  return journal;
}

/**
 * Replays, then removes, the journal of every web process whose lease has
 * lapsed (it was killed, or stopped with entries left); several workers may
 * run this at once, each journal is taken by one.
 *
 * @param prefix - QUEUE_PREFIX.
 * @returns How many entries were replayed.
 * @throws the Redis or MongoDB error (what is left is replayed next time).
 */
export async function replayDeadJournals(deps: SignalDeps, redis: Redis, prefix: string): Promise<number> {
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
