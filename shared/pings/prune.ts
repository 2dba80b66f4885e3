/** Trimming a check's history (docs/pinging.md, "Pruning"), run by the signal service on every 100th ping. */
import { Ping } from '../models/ping.js';
import { pingsInWindow } from './window.js';
import { Flip } from '../models/flip.js';
import { Notification } from '../models/notification.js';
import { Project } from '../models/project.js';
import type { CheckDoc } from '../models/check.js';

/** Flips are kept at least this long, in milliseconds (93 days). */
export const FLIP_RETENTION_MS = 93 * 24 * 3600 * 1000;

/**
 * Deletes pings with `n ≤ newestN − ping_log_limit` (the newest ping's `n`, the check's project's limit), then the notifications older than the
 * oldest remaining ping, then flips older than both the oldest remaining ping and 93 days before `now`, the newest ping's time (docs/pinging.md,
 * "Pruning"). A notification still `pending` or `sending` is kept: it is the exactly-once guard of a delivery in progress; a later prune trims it once
 * it is delivered or failed.
 * @throws the driver's error when MongoDB fails.
 */
export async function pruneCheckHistory(check: Pick<CheckDoc, '_id' | 'projectId'>, newestN: number, now: Date): Promise<void> {
  const project = await Project.findById(check.projectId, { pingLogLimit: 1 }).lean();
  if (!project) return;
  await Ping.deleteMany({ checkId: check._id, n: { $lte: newestN - project.pingLogLimit } });
  const [oldest] = await pingsInWindow({ checkId: check._id, above: newestN - project.pingLogLimit, below: newestN + 1, size: 1, fields: { created: 1 } }, true);
  if (oldest) {
    await Notification.deleteMany({ checkId: check._id, created: { $lt: oldest.created }, state: { $in: ['delivered', 'failed'] } });
  }
  const horizon = new Date(now.getTime() - FLIP_RETENTION_MS);
  const cutoff = oldest && oldest.created < horizon ? oldest.created : horizon;
  await Flip.deleteMany({ checkId: check._id, created: { $lt: cutoff } });
}
