/**
 * Reading a page of a check's ping log by ranges of `n` (docs/architecture.md, "Indexes"). Pings are numbered 1, 2, 3…
 * per check without gaps but at the oldest end, so the newest `size` pings below number `below` are the range
 * [below − size, below): a read bounded on both sides reads about `size` index entries on any server, where a sort with
 * a limit may read every entry of the check first (a server whose index is unordered sorts them all). A filtered page
 * (one kind of ping) widens the range, doubling it, until it has `size` pings or reaches the bound.
 */
import type { QueryFilter } from 'mongoose';
import { Ping, type PingDoc } from '../models/ping.js';

/** Which pings to read: `n` strictly between `above` and `below`, at most `size`, optionally one kind and some fields. */
export interface PingWindow {
  checkId: string;
  /** Exclusive lower bound of `n` (the pruned ones are at most this). */
  above: number;
  /** Exclusive upper bound of `n` (one past the check's count for the newest). */
  below: number;
  size: number;
  /** Further conditions (a kind, a body present). */
  where?: QueryFilter<PingDoc>;
  /** Mongoose projection. */
  fields?: Record<string, 0 | 1>;
}

/**
 * The pings of `window` nearest its upper bound, newest first (or nearest its lower bound, oldest first, with `ascending`).
 *
 * @returns At most `size` pings.
 * @throws the driver's error.
 */
export async function pingsInWindow(window: PingWindow, ascending = false): Promise<PingDoc[]> {
  const found: PingDoc[] = [];
  const lowest = window.above + 1;
  const highest = window.below - 1;
  let width = Math.max(1, window.size);
  // The next range starts at `edge`: the highest number not read yet (or the lowest, ascending).
  let edge = ascending ? lowest : highest;
  while (found.length < window.size && (ascending ? edge <= highest : edge >= lowest)) {
    const [from, to] = ascending ? [edge, Math.min(highest, edge + width - 1)] : [Math.max(lowest, edge - width + 1), edge];
    const rows = await Ping.find({ checkId: window.checkId, n: { $gte: from, $lte: to }, ...window.where }, window.fields)
      .sort({ n: ascending ? 1 : -1 })
      .limit(window.size - found.length)
      .lean<PingDoc[]>();
    found.push(...rows);
    edge = ascending ? to + 1 : from - 1;
    width *= 2;
  }
  return found;
}
