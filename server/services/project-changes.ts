/**
 * Changes to a project made from the web app: renaming it, and deleting it with its checks, pings, flips,
 * notifications, channels, people, keys and status pages. Creating a project and its keys is shared/services/projects.ts.
 */
import { Project } from '../../shared/models/project.js';
import { Check } from '../../shared/models/check.js';
import { Ping } from '../../shared/models/ping.js';
import { Flip } from '../../shared/models/flip.js';
import { Notification } from '../../shared/models/notification.js';
import { Channel } from '../../shared/models/channel.js';
import { Membership } from '../../shared/models/membership.js';
import { Invitation } from '../../shared/models/invitation.js';
import { ApiKey } from '../../shared/models/api-key.js';
import { StatusPage } from '../../shared/models/status-page.js';
import { Incident } from '../../shared/models/incident.js';
import type { Redis } from 'ioredis';
import { announceChanges } from '../../shared/status-pages/changes.js';
import { logger } from '../../shared/logger.js';

/** Most characters of a project name. */
export const MAX_PROJECT_NAME = 100;

/**
 * Deletes the project and everything in it; the project goes first, so a page still open elsewhere finds nothing.
 * Deleting twice is harmless. Its status pages stop answering at once: every web process's cache is told (shared/status-pages/changes.ts).
 * @throws the MongoDB error; a Redis error only delays the pages' end by the cache's age limit.
 */
export async function deleteProject(redis: Redis, projectId: string): Promise<void> {
  await Project.deleteOne({ _id: projectId });
  const checkIds = (await Check.find({ projectId }, { _id: 1 }).lean<{ _id: string }[]>()).map((c) => c._id);
  const byCheck = { checkId: { $in: checkIds } };
  const pageIds = (await StatusPage.find({ projectId }, { _id: 1 }).lean<{ _id: string }[]>()).map((p) => p._id);
  await Promise.all([Ping.deleteMany(byCheck), Flip.deleteMany(byCheck), Notification.deleteMany(byCheck), Incident.deleteMany({ pageId: { $in: pageIds } })]);
  await Promise.all([
    Check.deleteMany({ projectId }),
    Channel.deleteMany({ projectId }),
    Membership.deleteMany({ projectId }),
    Invitation.deleteMany({ projectId }),
    ApiKey.deleteMany({ projectId }),
    StatusPage.deleteMany({ projectId }),
  ]);
  await announceChanges(redis, pageIds.map((id) => ({ kind: 'page' as const, id }))).catch((err: unknown) => logger.warn({ err, projectId }, 'cannot tell status pages'));
}

/**
 * Renames a project.
 * @throws Error never; the caller validates the name (1 to {@link MAX_PROJECT_NAME} characters).
 */
export async function renameProject(projectId: string, name: string): Promise<void> {
  await Project.updateOne({ _id: projectId }, { $set: { name } });
}
