/**
 * The ping journal, what makes a 200 a promise while MongoDB is slow or away: each web process appends every ping to its own Redis streams (kept in
 * Redis's append-only file). A ping it applies itself goes to `stream` first and is deleted once its document is in MongoDB; what is left is replayed
 * (shared/pings/replay.ts) by the process itself, or, after a kill -9, by a worker once the process stops renewing its lease (PING_JOURNAL_LEASE_MS).
 * A ping it defers (answered at once: PING_ACK_MS=0, or PING_ACK_BACKLOG pings already waiting) goes to `deferred` only, which the workers apply in
 * bulk, in order, after everything in `stream`; the process applies nothing itself again until `deferred` is empty, so no ping overtakes another.
 */
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import type { Redis } from 'ioredis';
import type { Signal } from '../domain/status.js';
import { logger } from '../logger.js';
import { isDatabaseUnavailable } from '../unreachable.js';
import type { PingMeta } from './record.js';

const log = logger.child({ module: 'ping-journal' });

/** A journaled ping: everything needed to apply it later, in any process. */
export interface JournalEntry {
  /** The ping's `_id` in MongoDB (hex ObjectId). */
  id: string;
  checkId: string;
  /** The route's action with the exit status applied (docs/pinging.md, "Recording a ping"), before methods and body filters. */
  action: Signal;
  /** When the ping arrived, milliseconds since the epoch. */
  receivedMs: number;
  meta: Omit<PingMeta, '_id' | 'body'> & { body: string | null };
}

/** The Redis keys of one process's journal, under the deployment's prefix. */
export function journalKeys(prefix: string, instance: string): JournalKeys {
  const stream = `${prefix}:ping-journal:${instance}`;
  return { stream, deferred: `${stream}:deferred`, alive: `${stream}:alive` };
}

/** A journal's Redis keys: the pings its process applies, those it deferred to the workers, and its lease. */
export interface JournalKeys {
  stream: string;
  deferred: string;
  alive: string;
}

/** How often a process with deferred pings counts those the workers have not applied yet, milliseconds. */
const DEFERRED_RECOUNT_MS = 100;

/** The set naming every instance that has a journal. */
export function journalRegistry(prefix: string): string {
  return `${prefix}:ping-journals`;
}

/** The journal entry of a ping about to be applied (its body base64-encoded). */
export function entryOf(checkId: string, action: Signal, receivedMs: number, meta: PingMeta): JournalEntry {
  const { _id, body, ...rest } = meta;
  return { id: String(_id), checkId, action, receivedMs, meta: { ...rest, body: body ? body.toString('base64') : null } };
}

/** The ping request data of an entry, with its `_id` and body restored. */
export function metaOf(entry: JournalEntry): PingMeta {
  const { body, ...rest } = entry.meta;
  return { ...rest, _id: new mongoose.Types.ObjectId(entry.id), body: body === null ? null : Buffer.from(body, 'base64') };
}

/** A web process's journal. */
export class PingJournal {
  /** This process's instance id (a UUID). */
  readonly instance = randomUUID();
  readonly keys: JournalKeys;
  /** Entry ids being applied by this process right now: its own replays skip them. */
  readonly inFlight = new Set<string>();
  private renewal: NodeJS.Timeout | undefined;
  /** Deferred pings not applied yet, as last counted (the stream's length when asked, plus the appends sent since). */
  private deferredLeft = 0;
  /** Deferred appends sent, ever: what a count in flight has not seen. */
  private deferredSent = 0;
  private recount: NodeJS.Timeout | undefined;
  private stopped = false;

  /** @param leaseMs - PING_JOURNAL_LEASE_MS: the `alive` key lives this long, milliseconds, renewed every third of it. */
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly leaseMs: number,
  ) {
    this.keys = journalKeys(prefix, this.instance);
  }

  /**
   * Registers the journal and starts renewing its lease; `onRenew` runs after each renewal (the process replays its own leftovers there).
   * @throws the Redis error when the first registration fails.
   */
  async start(onRenew: () => Promise<unknown>): Promise<void> {
    await this.renew();
    let busy = false;
    this.renewal = setInterval(() => {
      if (busy) return;
      busy = true;
      this.renew()
        .then(onRenew)
        .catch((err: unknown) => log.warn({ err }, 'cannot renew the ping journal or replay it; trying again'))
        .finally(() => (busy = false));
    }, Math.floor(this.leaseMs / 3));
    this.renewal.unref();
  }

  /** Renews the lease and the registration (a worker forgets a journal whose lease lapsed, e.g. while this process was paused). */
  private async renew(): Promise<void> {
    await this.redis.multi().set(this.keys.alive, '1', 'PX', this.leaseMs).sadd(journalRegistry(this.prefix), this.instance).exec();
  }

  /** Appends a ping, durable once this resolves (AOF on); returns the stream entry id for {@link done}; throws the Redis error. */
  async append(entry: JournalEntry): Promise<string> {
    this.inFlight.add(entry.id);
    return (await this.redis.xadd(this.keys.stream, '*', 'p', JSON.stringify(entry)))!;
  }

  /** Deferred pings the workers have not applied yet (as counted at most {@link DEFERRED_RECOUNT_MS} ago, plus those deferred since). */
  get deferred(): number {
    return this.deferredLeft;
  }

  /** Appends a ping for the workers to apply, durable once this resolves (AOF on); throws the Redis error. */
  async defer(entry: JournalEntry): Promise<void> {
    this.deferredSent++;
    this.deferredLeft++;
    if (!this.recount) this.countLater();
    await this.redis.xadd(this.keys.deferred, '*', 'p', JSON.stringify(entry));
  }

  /** Counts the deferred pings left in {@link DEFERRED_RECOUNT_MS}, and again after that while there are some. */
  private countLater(): void {
    this.recount = setTimeout(() => {
      const sent = this.deferredSent;
      // Commands on this connection run in order: the length covers every append sent before it, not those sent after.
      this.redis.xlen(this.keys.deferred)
        .then((left) => (this.deferredLeft = left + (this.deferredSent - sent)), () => undefined)
        .finally(() => (this.deferredLeft > 0 && !this.stopped ? this.countLater() : (this.recount = undefined)));
    }, DEFERRED_RECOUNT_MS).unref();
  }

  /** Deletes an entry whose ping MongoDB has; a failure leaves it for a replay, which finds the ping stored. */
  done(streamId: string): void {
    this.redis.xdel(this.keys.stream, streamId).catch((err: unknown) => log.warn({ err }, 'cannot delete a journal entry; a replay will'));
  }

  /** Stops renewing. An empty journal is removed; one with entries (either stream) stays for a worker to replay once the lease lapses. */
  async stop(): Promise<void> {
    clearInterval(this.renewal);
    this.stopped = true;
    clearTimeout(this.recount);
    const [own, deferred] = await Promise.all([this.redis.xlen(this.keys.stream), this.redis.xlen(this.keys.deferred)]);
    if (own + deferred > 0) return;
    await this.redis.srem(journalRegistry(this.prefix), this.instance);
    await this.redis.del(this.keys.stream, this.keys.deferred, this.keys.alive);
  }
}

/**
 * What a ping is answered: applied in MongoDB (its `n`, or null when the check is gone), or `journaled` when it is in the journal and MongoDB has not
 * answered within `ackMs` (milliseconds), or could not be reached. Without a journal entry (Redis failed), only MongoDB's answer counts.
 * @throws the application's error when the ping is not journaled, or failed for another reason than an unreachable database (a replay would fail the
 *   same way).
 */
export async function acknowledged(applied: Promise<number | null>, journaled: boolean, ackMs: number): Promise<number | null | 'journaled'> {
  if (!journaled) return applied;
  let timer: NodeJS.Timeout | undefined;
  const stored = applied.catch((err: unknown) => {
    if (isDatabaseUnavailable(err)) return 'journaled' as const;
    throw err;
  });
  const late = new Promise<'journaled'>((resolve) => (timer = setTimeout(resolve, ackMs, 'journaled')));
  return Promise.race([stored, late]).finally(() => clearTimeout(timer));
}
