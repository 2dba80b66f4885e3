/**
 * What the charts read (issue "The web app, part 3", item 2): a check's newest pings without bodies, through the
 * `{checkId, n}` index, and flips since a moment, through `{checkId, created}`. Only the fields pairing and uptime use.
 */
import { Ping } from '../../shared/models/ping.js';
import { Flip } from '../../shared/models/flip.js';
import type { RunPing } from '../../shared/domain/runs.js';
import type { StatusChange } from '../../shared/domain/uptime.js';

/** Fields of a ping that runs are made of. */
const RUN_FIELDS = { _id: 0, checkId: 1, n: 1, created: 1, kind: 1, rid: 1 } as const;
/** Fields of a flip that uptime is made of. */
const FLIP_FIELDS = { _id: 0, checkId: 1, created: 1, oldStatus: 1, newStatus: 1 } as const;

/**
 * The check's newest `limit` pings (pairing fields only), newest first.
 *
 * @param limit - how many pings at most.
 */
export function newestPings(checkId: string, limit: number): Promise<RunPing[]> {
  return Ping.find({ checkId }, RUN_FIELDS).sort({ n: -1 }).limit(limit).lean<RunPing[]>();
}

/** A ping or flip with the check it belongs to. */
type OfCheck<T> = T & { checkId: string };

/** The pings (pairing fields only) of these checks created at or after `since`. */
export function pingsSince(checkIds: readonly string[], since: Date): Promise<Array<OfCheck<RunPing>>> {
  return Ping.find({ checkId: { $in: checkIds }, created: { $gte: since } }, RUN_FIELDS).lean<Array<OfCheck<RunPing>>>();
}

/** The flips (status fields only) of these checks created at or after `since`. */
export function flipsSince(checkIds: readonly string[], since: Date): Promise<Array<OfCheck<StatusChange>>> {
  return Flip.find({ checkId: { $in: checkIds }, created: { $gte: since } }, FLIP_FIELDS).lean<Array<OfCheck<StatusChange>>>();
}
