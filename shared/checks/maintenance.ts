/** Reads of the maintenance windows that cover checks (docs/alerting-rules.md); the timing itself is shared/domain/maintenance.ts. */
import { Maintenance, type MaintenanceDoc } from '../models/maintenance.js';
import { maintenanceUntil } from '../domain/maintenance.js';
import type { CheckDoc } from '../models/check.js';

/**
 * Reads the windows of the checks' projects (one query; none without checks) and returns, per check, until when it is in maintenance at `at`.
 * @param checks - Checks with `projectId` and `tags`.
 * @returns A function of a check (of those projects) giving the end of its maintenance, or null when it is not in one.
 * @throws the MongoDB error.
 */
export async function maintenanceOf(
  checks: readonly Pick<CheckDoc, 'projectId'>[],
  at: Date,
): Promise<(check: Pick<CheckDoc, '_id' | 'projectId' | 'tags'>, when?: Date) => Date | null> {
  const projectIds = [...new Set(checks.map((c) => c.projectId))];
  const windows = projectIds.length === 0 ? [] : await Maintenance.find({ projectId: { $in: projectIds } }).lean<MaintenanceDoc[]>();
  const byProject = new Map<string, MaintenanceDoc[]>();
  for (const w of windows) byProject.set(w.projectId, [...(byProject.get(w.projectId) ?? []), w]);
  return (check, when = at) => maintenanceUntil(byProject.get(check.projectId) ?? [], { _id: check._id, tags: check.tags ?? '' }, when);
}
