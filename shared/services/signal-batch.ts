/**
 * Pings recorded together: the signals that arrive within one batch window
 * share their database round trips (behaviour.md §4.3 step 10 for each). A
 * batch costs one `insertMany` of pings (each claiming its number through the
 * unique `(check, n)` index, as `recordSignal` does), one round of bulk
 * writes of guarded check updates (each carrying its owed flip in the check's outbox),
 * one completion of the owed flips, and one Redis round trip scheduling every
 * moved deadline, however many pings it holds.
 *
 * Pings to one check in the same batch are applied in arrival order, one
 * round each, so `n` stays consecutive. A ping whose number another process
 * claimed first, or whose check changed since it was read, leaves the batch
 * and goes the one-at-a-time way of shared/services/signal.ts, which waits
 * its turn or recomputes; so do the later pings of its check in the batch.
 */
import DataLoader from 'dataloader';
import { Check } from '../models/check.js';
import { Ping, type PingDoc } from '../models/ping.js';
import { applySignal, deadlineOf, type SignalOutcome } from '../domain/status.js';
import { bulkWriteChunked } from '../bulk.js';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { scheduleDeadlines } from '../queues/deadlines.js';
import { completeOutbox, outboxEntry, type OwedFlip } from './outbox.js';
import { pruneCheckHistory } from './prune.js';
import { guardOf, SIGNAL_PROJECTION, type SignalCheck } from './signal-check.js';
import { completeClaim, recordSignal, PRUNE_EVERY, type PingMeta, type ResolveSignal, type SignalDeps } from './signal.js';

const log = logger.child({ module: 'signal-batch' });

/** Longest a ping waits for others to share its batch, milliseconds. */
const BATCH_WINDOW_MS = 1;
/** Most pings in one batch. */
const MAX_BATCH = 500;
/** Most batches a process applies at once. */
const MAX_BATCHES_IN_FLIGHT = 2;
/** MongoDB's duplicate key error code. */
const DUPLICATE_KEY = 11000;

/**
 * One ping to record: its check (as the request read it, or by UUID alone:
 * the batch then reads every such check with one query), how to resolve its
 * action, and the request data.
 */
export type SignalItem = ({ check: SignalCheck } | { checkId: string }) & {
  resolve: ResolveSignal;
  meta: PingMeta;
};

/** A ping planned in a round: its number, outcome and ping document. */
interface Planned {
  index: number;
  check: SignalCheck;
  n: number;
  outcome: SignalOutcome;
  ping: PingDoc;
  entry: OwedFlip['entry'] | null;
}

/**
 * Records a batch of pings.
 *
 * @param deps - Clock and queues.
 * @param items - The pings, in arrival order.
 * @returns Each ping's `n`, or null when its check does not exist or was deleted meanwhile (same order as `items`).
 * @throws the MongoDB error of a batch read or write (every ping of the batch then fails).
 */
export async function recordSignals(deps: SignalDeps, items: readonly SignalItem[]): Promise<(number | null)[]> {
  const results: (number | null)[] = new Array<number | null>(items.length).fill(null);
  const checks = await checksOf(items);
  const byCheck = new Map<string, number[]>();
  for (const [index, check] of checks.entries()) {
    if (!check) continue;
    const queue = byCheck.get(check._id);
    if (queue) queue.push(index);
    else byCheck.set(check._id, [index]);
  }
  const state = new Map([...byCheck].map(([id, indexes]) => [id, checks[indexes[0]!]!]));
  const alone: number[][] = [];
  while (byCheck.size > 0) {
    const round = [...byCheck].map(([id, queue]) => ({ index: queue.shift()!, check: state.get(id)! }));
    for (const [id, queue] of byCheck) if (queue.length === 0) byCheck.delete(id);
    const { moved, left } = await applyRound(deps, items, round, results);
    for (const { check } of moved) state.set(check._id, check);
    for (const index of left) {
      const id = checks[index]!._id;
      alone.push([index, ...(byCheck.get(id) ?? [])]);
      byCheck.delete(id);
    }
  }
  // Pings that left the batch, each check's one after another, checks in parallel.
  await Promise.all(
    alone.map(async (indexes) => {
      for (const index of indexes) {
        const { resolve, meta } = items[index]!;
        results[index] = await recordSignal(deps, checks[index]!, resolve, meta);
      }
    }),
  );
  return results;
}

/**
 * Each item's check: as the request read it, or read now (one query for all
 * the items given by UUID alone); undefined when it does not exist.
 */
async function checksOf(items: readonly SignalItem[]): Promise<(SignalCheck | undefined)[]> {
  const wanted = [...new Set(items.flatMap((item) => ('check' in item ? [] : [item.checkId])))];
  const read = wanted.length === 0 ? [] : await Check.find({ _id: { $in: wanted } }, SIGNAL_PROJECTION).lean<SignalCheck[]>();
  const byId = new Map(read.map((check) => [check._id, check]));
  return items.map((item) => ('check' in item ? item.check : byId.get(item.checkId)));
}

/**
 * One round: at most one ping per check.
 *
 * @returns The checks as moved (for the next round), and the pings that must go the one-at-a-time way.
 */
async function applyRound(
  deps: SignalDeps,
  items: readonly SignalItem[],
  round: readonly { index: number; check: SignalCheck }[],
  results: (number | null)[],
): Promise<{ moved: Planned[]; left: number[] }> {
  const now = deps.clock();
  const planned: Planned[] = round.map(({ index, check }) => {
    const { resolve, meta } = items[index]!;
    const n = check.nPings + 1;
    const outcome = applySignal(check, resolve(check), now, meta.rid);
    const entry = outcome.flip && outboxEntry(outcome.flip, now, now);
    return { index, check, n, outcome, entry, ping: { checkId: check._id, n, created: now, kind: outcome.kind, ...meta } };
  });
  const taken = await insertPings(planned.map((p) => p.ping));
  const claimed = planned.filter((_, i) => !taken.has(i));
  const matched = await writeChecks(claimed);
  const moved = claimed.filter((p) => matched.has(p.check._id));
  await Promise.all(
    claimed
      .filter((p) => !matched.has(p.check._id))
      .map(async (p) => {
        results[p.index] = await completeClaim(deps, p.check, p.n, now, p.outcome, items[p.index]!.resolve, p.ping.rid);
      }),
  );
  for (const p of moved) results[p.index] = p.n;
  await afterWrites(deps, moved, now);
  const next = moved.map((p) => ({ ...p, check: { ...p.check, ...p.outcome.set, deadline: deadlineOf(p.outcome.next), nPings: p.n } }));
  return { moved: next, left: planned.filter((_, i) => taken.has(i)).map((p) => p.index) };
}

/**
 * Inserts the pings, each claiming its number.
 *
 * @returns Positions of the pings whose number another request holds.
 */
async function insertPings(pings: PingDoc[]): Promise<Set<number>> {
  try {
    await Ping.collection.insertMany(pings, { ordered: false });
    return new Set();
  } catch (err) {
    const { writeErrors } = err as { writeErrors?: { code?: number; index: number }[] | { code?: number; index: number } };
    const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
    if (list.length === 0 || list.some((e) => e.code !== DUPLICATE_KEY)) throw err;
    return new Set(list.map((e) => e.index));
  }
}

/**
 * Moves every claimed check from n − 1 to n with one bulk write, each guarded
 * on what its outcome was computed from.
 *
 * @returns UUIDs of the checks now at their ping's number.
 */
async function writeChecks(claimed: readonly Planned[]): Promise<Set<string>> {
  if (claimed.length === 0) return new Set();
  const matchedCount = await bulkWriteChunked(
    claimed.map(({ check, n, outcome, entry }) => ({
      updateOne: {
        filter: guardOf(check),
        update: { $set: { ...outcome.set, deadline: deadlineOf(outcome.next), nPings: n }, ...(entry ? { $push: { outbox: entry } } : {}) },
      },
    })),
    (chunk) => Check.bulkWrite(chunk, { ordered: false }),
  );
  if (matchedCount === claimed.length) return new Set(claimed.map((p) => p.check._id));
  // Only the claimant of ping n (or a waiter adopting its claim) moves a check to n.
  const ids = claimed.map((p) => p.check._id);
  const stored = await Check.find({ _id: { $in: ids } }, { nPings: 1 }).lean<{ _id: string; nPings: number }[]>();
  const wanted = new Map(claimed.map((p) => [p.check._id, p.n]));
  return new Set(stored.filter((c) => c.nPings >= wanted.get(c._id)!).map((c) => c._id));
}

/** Completes the owed flips, schedules the moved deadlines and prunes; a failure here is the sweep's to repair. */
async function afterWrites(deps: SignalDeps, moved: readonly Planned[], now: Date): Promise<void> {
  const owed = moved.flatMap((p) => (p.entry ? [{ check: { ...p.check, ...p.outcome.set, nPings: p.n }, entry: p.entry }] : []));
  const deadlines = moved.flatMap((p) => {
    const at = deadlineOf(p.outcome.next);
    return at && at.getTime() !== p.check.deadline?.getTime() ? [{ checkId: p.check._id, at }] : [];
  });
  await Promise.all([
    completeOutbox({ queues: deps.queues, notify: config.notify, pull: false }, owed, now).catch((err: unknown) =>
      log.error({ err }, 'cannot complete flips; the sweep will'),
    ),
    scheduleDeadlines(deps.queues.deadlines, deadlines, now).catch((err: unknown) =>
      log.error({ err }, 'cannot schedule deadlines; the sweep will'),
    ),
    ...moved
      .filter((p) => p.n % PRUNE_EVERY === 0)
      .map((p) => pruneCheckHistory(p.check, p.n, now).catch((err: unknown) => log.error({ err, checkId: p.check._id }, 'cannot prune'))),
  ]);
}

/**
 * A batcher of pings: pings arriving within {@link BATCH_WINDOW_MS} of each
 * other share one {@link recordSignals} call, and at most
 * {@link MAX_BATCHES_IN_FLIGHT} batches are applied at a time. Pings that
 * arrive meanwhile gather in the next batch (up to {@link MAX_BATCH}), so a
 * burst is applied in a few large batches instead of many small ones racing
 * each other for the same checks.
 *
 * @returns `load(item)` resolves with the ping's `n` (null when its check was deleted).
 */
export function signalBatcher(deps: SignalDeps): DataLoader<SignalItem, number | null> {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const schedule = (run: () => void): void => {
    if (inFlight < MAX_BATCHES_IN_FLIGHT) {
      inFlight++;
      setTimeout(run, BATCH_WINDOW_MS);
    } else {
      waiting.push(run);
    }
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else inFlight--;
  };
  return new DataLoader<SignalItem, number | null>(
    (items) => recordSignals(deps, items).finally(release),
    { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: schedule },
  );
}
