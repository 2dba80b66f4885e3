/**
 * What the charts read (docs/web-app.md, "A check's page"): a check's newest pings without bodies, through the
 * `{checkId, n}` index, and flips since a moment, through `{checkId, created}`. Only the fields pairing and uptime use.
 */
import { Ping } from '../../../shared/models/ping.js';
import { Flip } from '../../../shared/models/flip.js';
import type { RunPing } from '../../../shared/domain/runs.js';
import type { StatusChange } from '../../../shared/domain/uptime.js';

/** Fields of a ping that runs are made of. */
const RUN_FIELDS = { _id: 0, checkId: 1, n: 1, created: 1, kind: 1, rid: 1 } as const;
/** Fields of a flip that uptime is made of. */
const FLIP_FIELDS = { _id: 0, checkId: 1, created: 1, oldStatus: 1, newStatus: 1 } as const;

/**
 * The check's newest `count` pings (pairing fields only), in no order: those numbered above `newestN − count`, a
 * range of the `{checkId, n}` index rather than a sort of all the check's pings.
 *
 * @param newestN - the newest ping's number (the check's `nPings`).
 */
export function newestPings(checkId: string, newestN: number, count: number): Promise<RunPing[]> {
  return Ping.find({ checkId, n: { $gt: newestN - count } }, RUN_FIELDS).lean<RunPing[]>();
}

/** A ping or flip with the check it belongs to. */
type OfCheck<T> = T & { checkId: string };

/**
 * The pings (pairing fields only) of these checks created at or after `since`, of each check's newest `count` at most
 * (index ranges of `{checkId, n}`, as {@link newestPings}).
 *
 * @param checks - each check's id and newest ping number.
 */
export function pingsSince(checks: ReadonlyArray<{ _id: string; nPings: number }>, since: Date, count: number): Promise<Array<OfCheck<RunPing>>> {
  if (checks.length === 0) return Promise.resolve([]);
  const ranges = checks.map((check) => ({ checkId: check._id, n: { $gt: check.nPings - count } }));
  return Ping.find({ $or: ranges, created: { $gte: since } }, RUN_FIELDS).lean<Array<OfCheck<RunPing>>>();
}

/** The flips (status fields only) of these checks created at or after `since`. */
export function flipsSince(checkIds: readonly string[], since: Date): Promise<Array<OfCheck<StatusChange>>> {
  return Flip.find({ checkId: { $in: checkIds }, created: { $gte: since } }, FLIP_FIELDS).lean<Array<OfCheck<StatusChange>>>();
}
