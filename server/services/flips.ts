/** Listing a check's flips (docs/api-reference.md, "Endpoints"; docs/checks.md, "Flips"). */
import type { QueryFilter } from 'mongoose';
import { Flip, type FlipDoc } from '../../shared/models/flip.js';
import type { FlipsQuery } from '../schemas/query.js';

const MS_PER_SECOND = 1000;

/**
 * The check's changes into `up` or `down` (docs/checks.md, "Flips"), newest first. `query`, UNIX seconds, ANDed: created at least
 * `now` − `seconds` (0: none), at least `start`, before `end`.
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
