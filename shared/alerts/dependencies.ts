/**
 * Dependent checks (docs/alerting-rules.md, "Dependent checks: `depends_on`"): while a parent (a check in `dependsOn`) is down, a check's down alert is held back;
 * when its parents are all up again and it is still down, it alerts once. Recovery alerts are never held.
 *
 * Completing a down flip (shared/alerts/outbox.ts) of a check with parents: (1) decides whether it is held: a parent is down now, or the check's
 * `held` marker already names this flip (a completion repeated after a crash decides as the first did); (2) writes the marker through the store;
 * (3) the caller inserts the flip and its notifications, the held ones never sent; (4) re-reads the parents and releases the check when they are
 * all up. Completing a parent's recovery releases its held dependants. Releasing is one guarded write of the dependant that clears the marker and
 * owes an alert-only outbox entry: the alert is owed exactly once, and completed like any flip (a crash leaves it to the sweep). A parent that
 * recovers between (2) and (4) is seen by one side or the other: its release reads the marker after its own status write, (4) reads its status
 * after the marker's write.
 */
import { Types } from 'mongoose';
import { Check, type CheckDoc, type OutboxFlip } from '../models/check.js';
import type { HeldAlert } from '../models/check-rules.js';
import { liveStatus } from '../domain/status.js';
import { changeChecks, readChecks } from '../checks/store.js';

/** Error text of a notification held back (its log outcome is `skipped`, its reason `parent down`). */
export const HELD_ERROR = 'held back: a parent check is down';

/** The check fields completing an entry reads for dependencies. */
export type DependantCheck = Pick<CheckDoc, '_id' | 'dependsOn' | 'held'>;

/** One owed entry of a check (the shape of shared/alerts/outbox.ts `OwedFlip`). */
interface Owed {
  check: DependantCheck;
  entry: OutboxFlip;
}

/** A down flip owed by a check with parents (an alert-only release excluded). */
function mayBeHeld({ check, entry }: Owed): boolean {
  return entry.newStatus === 'down' && !entry.alertOnly && (check.dependsOn?.length ?? 0) > 0;
}

/** The UUIDs among `ids` of checks down at `now` (stored down, or past their deadline); a deleted check is not down. */
async function downChecks(ids: readonly string[], now: Date): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const checks = await Check.find({ _id: { $in: [...new Set(ids)] } }, { desc: 0, outbox: 0, recentPings: 0 }).lean<CheckDoc[]>();
  return new Set(checks.filter((check) => liveStatus(check, now) === 'down').map((check) => check._id));
}

/**
 * Step 1: which owed entries are held back (their ids). No query unless an entry is a down flip of a check with parents.
 *
 * @throws the MongoDB error.
 */
export async function heldByParents(owed: readonly Owed[], now: Date): Promise<Set<string>> {
  const candidates = owed.filter(mayBeHeld);
  if (candidates.length === 0) return new Set();
  const down = await downChecks(candidates.flatMap(({ check }) => check.dependsOn ?? []), now);
  const held = candidates.filter(({ check, entry }) => check.held?.flipId === String(entry._id) || (check.dependsOn ?? []).some((id) => down.has(id)));
  return new Set(held.map(({ entry }) => String(entry._id)));
}

/** The marker a check's latest entry asks for: the held flip, null (not held, or recovered), or undefined (nothing to say). */
function wantedMarkers(owed: readonly Owed[], held: ReadonlySet<string>): Map<string, HeldAlert | null> {
  const wanted = new Map<string, HeldAlert | null>();
  for (const { check, entry } of owed) {
    if (entry.alertOnly || ((check.dependsOn?.length ?? 0) === 0 && !check.held)) continue;
    const id = String(entry._id);
    wanted.set(check._id, held.has(id) ? { flipId: id, at: entry.at, reason: entry.reason, marks: [...(entry.marks ?? []), 'parent_down'] } : null);
  }
  return wanted;
}

/**
 * Step 2: writes each check's marker where it changes (set only on a check still down).
 *
 * @returns The UUIDs of the checks now holding an alert.
 * @throws the store's error.
 */
export async function markHeld(owed: readonly Owed[], held: ReadonlySet<string>): Promise<string[]> {
  const wanted = wantedMarkers(owed, held);
  const changing = owed.filter(({ check }) => wanted.has(check._id) && (check.held?.flipId ?? null) !== (wanted.get(check._id)?.flipId ?? null));
  if (changing.length > 0) {
    await changeChecks(await readChecks([...new Set(changing.map(({ check }) => check._id))]), (check) => {
      const marker = wanted.get(check._id) ?? null;
      if ((check.held?.flipId ?? null) === (marker?.flipId ?? null) || (marker && check.status !== 'down')) return { change: null, result: null };
      return { change: { set: { held: marker } }, result: null };
    });
  }
  return [...wanted].filter(([, marker]) => marker !== null).map(([id]) => id);
}

/**
 * The checks holding an alert that depend on any of `parentIds` (the `dependsOn` index); no query for none.
 *
 * @throws the MongoDB error.
 */
export function heldDependantsOf(parentIds: readonly string[]): Promise<CheckDoc[]> {
  if (parentIds.length === 0) return Promise.resolve([]);
  return Check.find({ dependsOn: { $in: [...parentIds] }, held: { $ne: null } }, { desc: 0 }).lean<CheckDoc[]>().exec();
}

/**
 * Step 4, and a parent's recovery (or pause, or deletion): releases the held checks among `childIds` (or the held dependants of the checks recovering in `owed`) whose
 * parents are all up now. Each release clears the marker and owes an alert-only entry in one guarded write.
 *
 * @returns The released entries, with their checks as written, for the caller to complete.
 * @throws the MongoDB or store error.
 */
export async function releaseHeld(owed: readonly Owed[], childIds: readonly string[], now: Date): Promise<{ check: CheckDoc; entry: OutboxFlip }[]> {
  // A parent no longer down: recovered, or paused.
  const recovered = owed.filter(({ entry }) => entry.oldStatus === 'down' && entry.newStatus !== 'down').map(({ check }) => check._id);
  const [own, dependants] = await Promise.all([readChecks(childIds), heldDependantsOf(recovered)]);
  const children = [...new Map([...own, ...dependants].filter((c) => c.held).map((c) => [c._id, c])).values()];
  if (children.length === 0) return [];
  const down = await downChecks(children.flatMap((c) => c.dependsOn ?? []), now);
  const ready = children.filter((c) => !(c.dependsOn ?? []).some((id) => down.has(id)));
  const applied = await changeChecks(ready, (check) => {
    if (!check.held) return { change: null, result: null };
    if (check.status !== 'down') return { change: { set: { held: null } }, result: null };
    const entry: OutboxFlip = {
      _id: new Types.ObjectId(), at: check.held.at, recorded: now, oldStatus: 'down', newStatus: 'down',
      reason: check.held.reason, marks: [...check.held.marks, 'released'], alertOnly: true,
    };
    return { change: { set: { held: null }, owe: [entry] }, result: entry };
  });
  return [...applied.values()].flatMap(({ check, result }) => (result ? [{ check, entry: result }] : []));
}
