/**
 * Deadline lateness: checks with timeout 2 s and
 * grace 1 s (the bench lowers the 60 s floor), each pinged once; the worker
 * must store each flip when its deadline passes. Lateness is the flip's
 * `processed` time (the down write done, its alerts begun; `recorded` is when
 * the worker's pass began, before its read and write) minus its `created`
 * time, the computed going-down moment (last ping + timeout + grace).
 */
import { randomUUID } from 'node:crypto';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { Flip } from '../../shared/models/flip.js';
import { idsOf, pingEach, slicesOf, waitUntil } from './common.js';
import { summarize, type Summary } from './stats.js';

/** Bench check period, seconds. */
const TIMEOUT_S = 2;
/** Bench grace, seconds. */
const GRACE_S = 1;

/**
 * Creates `count` checks in the project, inserted into MongoDB directly: how
 * a check is created is not what the bench measures, and FerretDB answers the
 * API's check-limit count by reading every check of the project.
 *
 * @param fields - Check fields (`timeout`/`grace` in seconds, or `kind: 'cron'` with `schedule`; `channels` as UUIDs).
 * @returns Their ping URLs' paths (`/ping/<uuid>`).
 */
export async function createChecks(projectId: string, count: number, fields: Partial<CheckDoc>): Promise<string[]> {
  const now = new Date();
  const docs = Array.from({ length: count }, (_, i) => ({ _id: randomUUID(), projectId, badgeKey: randomUUID(), created: now, name: `bench-${i}`, ...fields }));
  for (const slice of slicesOf(docs)) await Check.insertMany(slice);
  return docs.map((d) => `/ping/${d._id}`);
}

/**
 * Measures deadline lateness for `count` checks.
 *
 * @returns Lateness in milliseconds, and how many flips arrived.
 * @throws Error when not every check flipped within 60 s of its deadline.
 */
export async function measureLateness(origin: string, projectId: string, count: number): Promise<Summary> {
  const paths = await createChecks(projectId, count, { timeout: TIMEOUT_S, grace: GRACE_S, tags: 'lateness' });
  const pinged = Date.now();
  await pingEach(origin, paths);
  const ids = idsOf(paths);
  let flips: { created: Date; processed: Date | null }[] = [];
  const within = pinged + (TIMEOUT_S + GRACE_S) * 1000 + 60_000 - Date.now();
  await waitUntil(async () => {
    flips = await Flip.find({ checkId: { $in: ids }, reason: 'timeout' }, { created: 1, processed: 1 }).lean();
    return flips.length >= count;
  }, within, count === 1 ? 20 : 250);
  if (flips.length < count) throw new Error(`only ${flips.length} of ${count} checks flipped`);
  return summarize(flips.map((f) => f.processed!.getTime() - f.created.getTime()));
}
