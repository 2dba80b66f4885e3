/**
 * What stops an import before it writes anything (docs/migrating.md, "Running it again"): a check UUID, channel UUID, ping
 * key or badge key that is already used here by something else than what an earlier run of the same import made. What the
 * same project (same UUID) holds is this import's own and is updated.
 */
import { Check } from '../models/check.js';
import { Channel } from '../models/channel.js';
import { Project } from '../models/project.js';
import { AppError } from '../errors.js';
import type { ImportPlan } from './plan.js';

/** Most conflicts named in the message. */
const NAMED = 5;

/**
 * Finds the plan's conflicts.
 * @returns One line per conflict, empty when there is none.
 */
export async function findConflicts(plan: ImportPlan): Promise<string[]> {
  const problems: string[] = [];
  const projectOfCheck = new Map(plan.projects.flatMap((p) => p.checks.map((c) => [c.id, p.id])));
  const projectOfChannel = new Map(plan.projects.flatMap((p) => p.channels.map((c) => [c._id, p.id])));
  const ids = [...projectOfCheck.keys()];
  const badgeKeys = plan.projects.flatMap((p) => p.checks.map((c) => c.badgeKey));
  const [byId, byBadge, channels, projects] = await Promise.all([
    Check.find({ _id: { $in: ids } }, { projectId: 1 }).lean<{ _id: string; projectId: string }[]>(),
    Check.find({ badgeKey: { $in: badgeKeys } }, { badgeKey: 1, projectId: 1 }).lean<{ _id: string; badgeKey: string; projectId: string }[]>(),
    Channel.find({ _id: { $in: [...projectOfChannel.keys()] } }, { projectId: 1 }).lean<{ _id: string; projectId: string }[]>(),
    Project.find(
      { $or: [{ pingKey: { $in: plan.projects.map((p) => p.pingKey) } }, { badgeKey: { $in: plan.projects.map((p) => p.badgeKey) } }] },
      { pingKey: 1, badgeKey: 1 },
    ).lean<{ _id: string; pingKey: string; badgeKey: string }[]>(),
  ]);
  for (const check of byId) {
    if (check.projectId !== projectOfCheck.get(check._id)) problems.push(`check UUID ${check._id} is used here by project ${check.projectId}`);
  }
  const checkOfBadge = new Map(plan.projects.flatMap((p) => p.checks.map((c) => [c.badgeKey, c.id])));
  for (const check of byBadge) {
    if (checkOfBadge.get(check.badgeKey) !== check._id) problems.push(`badge key ${check.badgeKey} is used here by check ${check._id}`);
  }
  for (const channel of channels) {
    if (channel.projectId !== projectOfChannel.get(channel._id)) problems.push(`channel UUID ${channel._id} is used here by project ${channel.projectId}`);
  }
  for (const project of projects) {
    const mine = plan.projects.find((p) => p.pingKey === project.pingKey || p.badgeKey === project.badgeKey);
    if (mine && mine.id !== project._id) {
      problems.push(`${mine.pingKey === project.pingKey ? 'ping key' : 'badge key'} of project "${mine.name}" is used here by project ${project._id}`);
    }
  }
  return problems;
}

/**
 * Stops the import when anything conflicts.
 * @throws AppError(409) naming the first conflicts and saying nothing was written.
 */
export async function assertNoConflicts(plan: ImportPlan): Promise<void> {
  const problems = await findConflicts(plan);
  if (problems.length === 0) return;
  const more = problems.length > NAMED ? ` (and ${problems.length - NAMED} more)` : '';
  throw new AppError(409, `nothing imported: ${problems.slice(0, NAMED).join('; ')}${more}`);
}
