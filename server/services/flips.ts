/**
 * Listing a check's flips (behaviour.md §3.6 List flips, §2.7 rule 3).
 */
import type { QueryFilter } from 'mongoose';
import { Flip, type FlipDoc } from '../../shared/models/flip.js';
import type { FlipsQuery } from '../schemas/query.js';

const MS_PER_SECOND = 1000;

/**
 * The check's changes into `up` or `down`, newest first. Changes into
 * `paused` or `new` are stored but are not flips in the API's sense (seed).
 *
 * @param query - `seconds` (0 = no filter): created ≥ now − seconds;
 *   `start`: created ≥ start; `end`: created < end; UNIX seconds, combined with AND.
 * @param now - The current moment, for `seconds`.
 */
export async function listFlips(checkId: string, query: FlipsQuery, now: Date): Promise<FlipDoc[]> {
  const lower: number[] = [];
  if (query.seconds) lower.push(now.getTime() - query.seconds * MS_PER_SECOND);
  if (query.start !== undefined) lower.push(query.start * MS_PER_SECOND);
  const created: { $gte?: Date; $lt?: Date } = {};
  if (lower.length) created.$gte = new Date(Math.max(...lower));
  if (query.end !== undefined) created.$lt = new Date(query.end * MS_PER_SECOND);
  const filter: QueryFilter<FlipDoc> = { checkId, newStatus: { $in: ['up', 'down'] } };
  if (created.$gte || created.$lt) filter.created = created;
  return Flip.find(filter).sort({ created: -1 }).lean<FlipDoc[]>();
}
