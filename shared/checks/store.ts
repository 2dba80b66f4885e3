/**
 * The check store, the only writer of a check's state. One rule: read, compute the change with a pure function, write it with ONE update guarded by
 * `rev` (adding 1) that also pushes the flips it owes into the outbox; no match means another writer came first: re-read and compute again.
 *
 * Many checks are written with bulk writes, which report only how many matched: a bulk with a miss is re-read and computed again whole, so a
 * computation must recognise its own change in the state it left (a down check needs no deadline; a ping in `recentPings` is counted).
 */
import { Types } from 'mongoose';
import { Check, type CheckDoc, type OutboxFlip } from '../models/check.js';
import type { FlipChange } from '../domain/status.js';

/**
 * How many times a change is recomputed after losing to another writer: each round has one winner, so this bounds how many
 * writers of one check may race (with {@link backoff} between rounds) before a change gives up.
 */
const MAX_ATTEMPTS = 200;
/** Longest pause before a recomputation, milliseconds. */
const MAX_BACKOFF_MS = 20;

/** A random pause growing with the attempt, so writers that keep losing to each other spread out instead of colliding again. */
function backoff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(MAX_BACKOFF_MS, attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
/** Guarded writes per bulk write: a miss re-reads this many checks. */
const BULK_SIZE = 100;
/** Bulk writes in flight at once per call: a large batch queues here, not in the driver's connection pool. */
const BULKS_IN_FLIGHT = 4;

/** What a change writes: fields to set, and the flips it owes (pushed into the outbox). */
export interface CheckChange {
  set: Partial<CheckDoc>;
  owe?: OutboxFlip[];
}

/** Computes a change from the check as read (`change: null` writes nothing); pure, as it runs again after a conflict. */
export type Compute<T> = (check: CheckDoc) => { change: CheckChange | null; result: T };

/** A written (or unchanged) check: the state after the change, and what the computation returned. */
export interface Applied<T> {
  check: CheckDoc;
  result: T;
}

/**
 * A new outbox entry; `at` is when the status changed (for a missed deadline, the deadline; for a rule's alert, when it became due), `now` when it
 * is written. A rule's alert (shared/domain/rules.ts) carries its `event` and `n`.
 */
export function owedFlip(change: FlipChange & Pick<OutboxFlip, 'event' | 'n'>, at: Date, now: Date): OutboxFlip {
  return { _id: new Types.ObjectId(), at, recorded: now, ...change };
}

/** Fields the state-changing paths never need (unbounded text). */
const PROJECTION = { desc: 0 } as const;

/** Reads checks for a change, without `desc`; a deleted one is absent. */
export function readChecks(ids: readonly string[]): Promise<CheckDoc[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return Check.find({ _id: { $in: [...new Set(ids)] } }, PROJECTION).lean<CheckDoc[]>().exec();
}

/** Reads the checks not down whose deadline is at most `now` (the `deadline` index), earliest first, at most `limit`. */
export function readDue(now: Date, limit: number): Promise<CheckDoc[]> {
  return Check.find({ deadline: { $lte: now }, status: { $ne: 'down' } }, PROJECTION).sort({ deadline: 1 }).limit(limit).lean<CheckDoc[]>().exec();
}

/**
 * Reads the checks whose maintenance window holding a down alert ended by `now` (`heldUntil`, sparse index), earliest first, at most `limit`: a
 * window's end is due for all its checks in one instant, as a mass down is.
 */
export function readHeldDue(now: Date, limit: number): Promise<CheckDoc[]> {
  return Check.find({ heldUntil: { $lte: now } }, PROJECTION).sort({ heldUntil: 1 }).limit(limit).lean<CheckDoc[]>().exec();
}

/** The guarded update of one change: matches only the check still at the `rev` read. */
function guarded(check: CheckDoc, change: CheckChange) {
  const rev = check.rev ?? 0;
  const owe = change.owe ?? [];
  const update = { $set: { ...change.set, rev: rev + 1 }, ...(owe.length > 0 ? { $push: { outbox: { $each: owe } } } : {}) };
  // A check stored before `rev` existed has none: null matches the missing field.
  return { filter: { _id: check._id as never, rev: check.rev === undefined ? null : rev }, update: update as never };
}

/**
 * Writes changes, one guarded update each ({@link BULK_SIZE} per bulk write, {@link BULKS_IN_FLIGHT} bulk writes at a time).
 *
 * @returns The UUIDs of the checks whose write may have missed: the one that missed, or every check of a bulk with a miss.
 */
async function writeAll(writes: readonly { check: CheckDoc; change: CheckChange }[]): Promise<Set<string>> {
  const unsure = new Set<string>();
  if (writes.length === 1) {
    const { filter, update } = guarded(writes[0].check, writes[0].change);
    if ((await Check.collection.updateOne(filter, update)).matchedCount === 0) unsure.add(writes[0].check._id);
    return unsure;
  }
  const bulks = Array.from({ length: Math.ceil(writes.length / BULK_SIZE) }, (_, i) => writes.slice(i * BULK_SIZE, (i + 1) * BULK_SIZE));
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let bulk = bulks[next++]; bulk; bulk = bulks[next++]) {
      const res = await Check.collection.bulkWrite(bulk.map(({ check, change }) => ({ updateOne: guarded(check, change) })), { ordered: false });
      if (res.matchedCount < bulk.length) for (const { check } of bulk) unsure.add(check._id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULKS_IN_FLIGHT, bulks.length) }, lane));
  return unsure;
}

/**
 * Applies `compute` to each check with its own guarded write, all at once; those whose write may have lost to another writer are re-read together and
 * computed again.
 *
 * @returns Each check still existing, after its change, with the computation's result.
 * @throws Error when a check keeps changing under its writer; the driver's error.
 */
export async function changeChecks<T>(checks: readonly CheckDoc[], compute: Compute<T>): Promise<Map<string, Applied<T>>> {
  const applied = new Map<string, Applied<T>>();
  let pending = checks;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt === MAX_ATTEMPTS) throw new Error(`check ${pending[0]._id} keeps changing under its writer`);
    if (attempt > 1) await backoff(attempt);
    const computed = pending.map((check) => ({ check, ...compute(check) }));
    const unsure = await writeAll(computed.flatMap(({ check, change }) => (change ? [{ check, change }] : [])));
    for (const { check, change, result } of computed) {
      if (unsure.has(check._id)) continue;
      const after = change ? { ...check, ...change.set, rev: (check.rev ?? 0) + 1, outbox: [...check.outbox, ...(change.owe ?? [])] } : check;
      applied.set(check._id, { check: after, result });
    }
    pending = await readChecks([...unsure]);
  }
  return applied;
}

/** {@link changeChecks} for one check (as read, or its UUID); null when it does not exist. */
export async function changeCheck<T>(check: CheckDoc | string, compute: Compute<T>): Promise<Applied<T> | null> {
  const read = typeof check === 'string' ? await readChecks([check]) : [check];
  const id = typeof check === 'string' ? check : check._id;
  return (await changeChecks(read, compute)).get(id) ?? null;
}

/**
 * Removes completed outbox entries (matched whole). Unguarded, and `rev` is left alone: a pull commutes with every other write, which only push.
 *
 * @throws the driver's error (the sweep completes and pulls what is left).
 */
export async function pullOwed(done: readonly { checkId: string; entry: OutboxFlip }[]): Promise<void> {
  const byCheck = new Map<string, OutboxFlip[]>();
  for (const { checkId, entry } of done) byCheck.set(checkId, [...(byCheck.get(checkId) ?? []), entry]);
  if (byCheck.size === 0) return;
  const pulls = [...byCheck].map(([checkId, entries]) => ({ updateOne: { filter: { _id: checkId as never }, update: { $pullAll: { outbox: entries } } as never } }));
  await Check.collection.bulkWrite(pulls, { ordered: false });
}

/** Unassigns a deleted channel from its project's checks (unguarded: channels play no part in the state). */
export async function unassignChannel(projectId: string, channelId: string): Promise<void> {
  await Check.updateMany({ projectId, channels: channelId }, { $pull: { channels: channelId } });
}
