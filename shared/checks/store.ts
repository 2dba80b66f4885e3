/**
 * The check store, the only writer of a check's state. One rule: read, compute
 * the change with a pure function, write it with ONE update guarded by `rev`
 * (adding 1) that also pushes the flips it owes into the outbox; no match
 * means another writer came first: re-read and compute again.
 */
import { Types } from 'mongoose';
import { Check, type CheckDoc, type OutboxFlip } from '../models/check.js';
import type { FlipChange } from '../domain/status.js';

/** How many times a change is recomputed after losing to another writer. */
const MAX_ATTEMPTS = 50;

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

/** A new outbox entry; `at` is when the status changed (for a missed deadline, the deadline), `now` when it is written. */
export function owedFlip(change: FlipChange, at: Date, now: Date): OutboxFlip {
  return { _id: new Types.ObjectId(), at, recorded: now, ...change };
}

/** Fields the state-changing paths never need (unbounded text). */
const PROJECTION = { desc: 0 } as const;

/** Reads checks for a change, without `desc`; a deleted one is absent. */
export function readChecks(ids: readonly string[]): Promise<CheckDoc[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return Check.find({ _id: { $in: [...new Set(ids)] } }, PROJECTION).lean<CheckDoc[]>().exec();
}

/**
 * Reads the checks not down whose deadline is at most `now` (the `deadline`
 * index), earliest first, at most `limit`.
 */
export function readDue(now: Date, limit: number): Promise<CheckDoc[]> {
  return Check.find({ deadline: { $lte: now }, status: { $ne: 'down' } }, PROJECTION).sort({ deadline: 1 }).limit(limit).lean<CheckDoc[]>().exec();
}

/** One guarded write; true when it matched (the check was still at the `rev` read). */
async function write(check: CheckDoc, change: CheckChange): Promise<boolean> {
  const rev = check.rev ?? 0;
  const owe = change.owe ?? [];
  const update = { $set: { ...change.set, rev: rev + 1 }, ...(owe.length > 0 ? { $push: { outbox: { $each: owe } } } : {}) };
  // A check stored before `rev` existed has none: null matches the missing field.
  const res = await Check.collection.updateOne({ _id: check._id as never, rev: check.rev === undefined ? null : rev }, update as never);
  return res.matchedCount === 1;
}

/**
 * Applies `compute` to each check with its own guarded write, all at once;
 * those that lost to another writer are re-read together and computed again.
 *
 * @returns Each check still existing, after its change, with the computation's result.
 * @throws Error when a check keeps changing under its writer; the driver's error.
 */
export async function changeChecks<T>(checks: readonly CheckDoc[], compute: Compute<T>): Promise<Map<string, Applied<T>>> {
  const applied = new Map<string, Applied<T>>();
  let pending = checks;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt === MAX_ATTEMPTS) throw new Error(`check ${pending[0]._id} keeps changing under its writer`);
    const lost = await Promise.all(
      pending.map(async (check) => {
        const { change, result } = compute(check);
        if (change && !(await write(check, change))) return check._id;
        const after = change ? { ...check, ...change.set, rev: (check.rev ?? 0) + 1, outbox: [...check.outbox, ...(change.owe ?? [])] } : check;
        applied.set(check._id, { check: after, result });
        return null;
      }),
    );
    pending = await readChecks(lost.filter((id): id is string => id !== null));
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
 * Removes completed outbox entries (matched whole). Unguarded, and `rev` is
 * left alone: a pull commutes with every other write, which only push.
 *
 * @throws the driver's error (the sweep completes and pulls what is left).
 */
export async function pullOwed(done: readonly { checkId: string; entry: OutboxFlip }[]): Promise<void> {
  const byCheck = new Map<string, OutboxFlip[]>();
  for (const { checkId, entry } of done) byCheck.set(checkId, [...(byCheck.get(checkId) ?? []), entry]);
  await Promise.all([...byCheck].map(([checkId, entries]) => Check.collection.updateOne({ _id: checkId as never }, { $pullAll: { outbox: entries } } as never)));
}

/** Unassigns a deleted channel from its project's checks (unguarded: channels play no part in the state). */
export async function unassignChannel(projectId: string, channelId: string): Promise<void> {
  await Check.updateMany({ projectId, channels: channelId }, { $pull: { channels: channelId } });
}
