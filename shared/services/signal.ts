/**
 * The one place a signal is applied to a check, used by HTTP pings and inbound
 * email alike (behaviour.md §2.5, §4.3 steps 10 and 12).
 *
 * There are no transactions (FerretDB has none), and FerretDB v1 does not even
 * apply a conditional update atomically: it reads, then rewrites the document.
 * What both servers do enforce is the unique index on pings (check, n). So a
 * ping first CLAIMS its number by inserting ping n = nPings + 1; only the
 * claimant of n may move the check from nPings n − 1 to n. A request that finds
 * n taken waits until the check reaches n and then claims n + 1. Pings to one
 * check are thereby applied one after another, in `n` order, and no increment
 * is lost.
 *
 * The claimant's check write is also guarded on every field the outcome was
 * computed from, so a pause, an API update or the deadline worker writing in
 * between makes it recompute instead of applying a stale transition.
 *
 * A claim whose check write never happens (a crash, a failed write) would
 * stall the check; a waiter adopts such a claim after {@link ADOPT_AFTER_MS}:
 * it applies the claimed ping's recorded kind itself and moves on.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Check } from '../models/check.js';
import { Ping, type PingDoc } from '../models/ping.js';
import { applySignal, deadlineOf, type Signal, type SignalOutcome } from '../domain/status.js';
import { completeOutbox, outboxEntry } from './outbox.js';
import { config } from '../config.js';
import { pruneCheckHistory } from './prune.js';
import { guardOf, readSignalCheck as reread, type SignalCheck } from './signal-check.js';
import { scheduleDeadline } from '../queues/deadlines.js';
import type { Queues } from '../queues/index.js';
import type { Clock } from '../clock.js';
import { logger } from '../logger.js';

export { SIGNAL_PROJECTION, type SignalCheck } from './signal-check.js';

const log = logger.child({ module: 'signal' });

/** How many times a claimant recomputes after a concurrent non-ping write. */
const MAX_ATTEMPTS = 20;
/** A claim with no check write after this many milliseconds is adopted by a waiter. */
const ADOPT_AFTER_MS = 2000;
/** Longest pause between two looks at a claimed number, in milliseconds (before jitter). */
const MAX_WAIT_STEP_MS = 32;
/** How often (in pings) old pings are pruned (behaviour.md §4.3 step 12). */
export const PRUNE_EVERY = 100;
/** MongoDB's duplicate key error code. */
const DUPLICATE_KEY = 11000;

/** What the caller knows of the request, stored on the ping. */
export type PingMeta = Pick<PingDoc, '_id' | 'scheme' | 'remoteAddr' | 'method' | 'ua' | 'body' | 'exitStatus' | 'rid'>;

/** Dependencies of {@link recordSignal}. */
export interface SignalDeps {
  clock: Clock;
  queues: Queues;
}

/** Turns the check as read into the action to apply (methods and keyword filters). */
export type ResolveSignal = (check: SignalCheck) => Signal;

/**
 * Applies a signal and logs the ping (behaviour.md §4.3 step 10): stores the
 * ping with `n` = the new `nPings`, updates the check and adds 1 to `nPings`,
 * records a flip (through the check's outbox) when the stored status changes, schedules the deadline,
 * and prunes every 100th ping.
 *
 * @param deps - Clock and queues.
 * @param check - The check as already read by the caller (saves a read on the hot path).
 * @param resolve - Maps the check to the action; called again whenever the check is re-read.
 * @param meta - Request data stored on the ping.
 * @returns The ping's `n`, or null when the check was deleted meanwhile.
 * @throws Error when concurrent writes keep winning, or the driver's error when MongoDB fails.
 */
export async function recordSignal(
  deps: SignalDeps,
  check: SignalCheck,
  resolve: ResolveSignal,
  meta: PingMeta,
): Promise<number | null> {
  let current: SignalCheck | null = check;
  while (current) {
    const n = current.nPings + 1;
    const now = deps.clock();
    const outcome = applySignal(current, resolve(current), now, meta.rid);
    const claimed = await claim(current._id, n, now, outcome.kind, meta);
    if (claimed === true) return completeClaim(deps, current, n, now, outcome, resolve, meta.rid);
    if (claimed) return settleStored(deps, claimed);
    current = await awaitTurn(deps, current._id, n);
  }
  return null;
}

/**
 * Inserts ping n.
 *
 * @returns true when claimed; false when another ping holds n; this very ping
 *   as stored when a journaled ping (`meta._id`) was stored before (a replay).
 */
async function claim(checkId: string, n: number, created: Date, kind: Signal, meta: PingMeta): Promise<boolean | PingDoc> {
  const ping: PingDoc = { checkId, n, created, kind, ...meta };
  if (ping._id === undefined) delete ping._id;
  try {
    // Every field is given, so the driver's insert is enough: no document to build or validate.
    await Ping.collection.insertOne(ping);
    return true;
  } catch (err) {
    if ((err as { code?: unknown }).code !== DUPLICATE_KEY) throw err;
    return (meta._id && (await Ping.findById(meta._id, { body: 0 }).lean<PingDoc>())) || false;
  }
}

/**
 * Finishes a ping found already stored (a journaled ping replayed after its
 * first application was cut off): moves the check to it if the check is
 * still one short of it, as a waiter adopts an abandoned claim.
 *
 * @returns The ping's `n`, or null when the check was deleted.
 */
export async function settleStored(deps: SignalDeps, stored: PingDoc): Promise<number | null> {
  const fresh = await reread(stored.checkId);
  if (!fresh) return null;
  if (fresh.nPings === stored.n - 1) await adopt(deps, fresh, stored);
  return stored.n;
}

/** Applies a claimed ping's recorded kind for its holder, whose own check write never came. */
async function adopt(deps: SignalDeps, fresh: SignalCheck, holder: PingDoc): Promise<void> {
  const outcome = applySignal(fresh, holder.kind, holder.created, holder.rid);
  await writeTransition(deps, fresh, holder.n, holder.created, outcome);
}

/**
 * Moves the check to `n` for our claimed ping, recomputing when another writer
 * changed a guarded field in between.
 *
 * @param read - The check as read before the claim (at n − 1).
 * @param at - The ping's time.
 * @param first - The outcome computed from `read`.
 * @returns `n`, or null (and the claim withdrawn) when the check is gone.
 * @throws Error when concurrent writes keep winning, or the driver's error.
 */
export async function completeClaim(
  deps: SignalDeps,
  read: SignalCheck,
  n: number,
  at: Date,
  first: SignalOutcome,
  resolve: ResolveSignal,
  rid: string | null,
): Promise<number | null> {
  let [current, now, outcome] = [read, at, first];
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (await writeTransition(deps, current, n, now, outcome)) return n;
    const fresh = await reread(current._id);
    if (!fresh) {
      await Ping.deleteOne({ checkId: current._id, n });
      return null;
    }
    // A waiter adopted our claim and wrote (and flipped) for it.
    if (fresh.nPings >= n) return n;
    [current, now] = [fresh, deps.clock()];
    outcome = applySignal(current, resolve(current), now, rid);
    await Ping.updateOne({ checkId: current._id, n }, { $set: { kind: outcome.kind, created: now } });
  }
  throw new Error(`check ${read._id} keeps changing under ping ${n}`);
}

/**
 * Waits until the holder of ping n has moved the check to n, adopting the
 * claim when it looks abandoned: its ping is old, or we have waited long.
 * The pause between looks grows, so many waiters on one busy check do not
 * crowd out the holder's own write.
 *
 * @returns The check as re-read, or null when it was deleted.
 */
async function awaitTurn(deps: SignalDeps, checkId: string, n: number): Promise<SignalCheck | null> {
  const startedMs = Date.now();
  for (let look = 0; ; look++) {
    const fresh = await reread(checkId);
    if (!fresh || fresh.nPings >= n) return fresh;
    const waitedLong = Date.now() - startedMs >= ADOPT_AFTER_MS;
    if (look === 0 || waitedLong) {
      const holder = await Ping.findOne({ checkId, n }).lean<PingDoc>();
      if (!holder) return fresh;
      if (waitedLong || deps.clock().getTime() - holder.created.getTime() >= ADOPT_AFTER_MS) {
        log.warn({ checkId, n }, 'adopting a ping claim whose check write never came');
        await adopt(deps, fresh, holder);
        return reread(checkId);
      }
    }
    await sleep(Math.min(2 ** look, MAX_WAIT_STEP_MS) * (0.5 + Math.random()));
  }
}

/**
 * Writes the transition from nPings n − 1 to n, if the check is still as read,
 * with the flip it causes in the check's outbox (one atomic write); the
 * writer then completes the flip, schedules the deadline and prunes. A failure
 * after the write loses nothing: the sweep completes the outbox and re-adds
 * the deadline.
 *
 * @returns Whether this write moved the check.
 */
async function writeTransition(
  deps: SignalDeps,
  check: SignalCheck,
  n: number,
  now: Date,
  outcome: SignalOutcome,
): Promise<boolean> {
  const deadline = deadlineOf(outcome.next);
  const entry = outcome.flip && outboxEntry(outcome.flip, now, now);
  const update = { $set: { ...outcome.set, deadline, nPings: n }, ...(entry ? { $push: { outbox: entry } } : {}) };
  const res = await Check.updateOne(guardOf(check), update);
  if (res.matchedCount !== 1) return false;
  const checkId = check._id;
  if (entry) {
    const owed = [{ check: { ...check, ...outcome.set, nPings: n }, entry }];
    await completeOutbox({ queues: deps.queues, notify: config.notify, pull: false }, owed, now).catch((err: unknown) =>
      log.error({ err, checkId }, 'cannot complete the flip; the sweep will'),
    );
  }
  if (deadline && deadline.getTime() !== check.deadline?.getTime()) {
    await scheduleDeadline(deps.queues.deadlines, checkId, deadline, now).catch((err: unknown) =>
      log.error({ err, checkId }, 'cannot schedule deadline; the sweep will'),
    );
  }
  if (n % PRUNE_EVERY === 0) {
    await pruneCheckHistory(check, n, now).catch((err: unknown) => log.error({ err, checkId }, 'cannot prune'));
  }
  return true;
}
