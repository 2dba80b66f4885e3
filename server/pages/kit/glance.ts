/**
 * Status at a glance (README, Web app): how many checks are down in each of the user's projects, for the tab title
 * ("2 down · Backups"), the favicon (red while one is down) and the header's project switcher on every page, and each
 * project's counts per status for the project list (troubled projects first).
 *
 * A check counts as down when it is stored `down` or its deadline has passed (the deadline job flips it a moment
 * later): the live status (docs/checks.md, "Status") without reading every check.
 */
import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Clock } from '../../../shared/clock.js';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { liveStatus } from '../../../shared/domain/status.js';
import type { MemberProject } from '../../../shared/services/members.js';
import { projectsSeenBy, type Viewer } from '../../../shared/services/access.js';
import { currentUser } from './render.js';

/**
 * The checks of `projectId` down at `now`: two counts an index answers each (stored `down`: projectId, status;
 * deadline passed: projectId, deadline) rather than one `$or`. A down check has no deadline, so none is counted twice.
 */
export async function downCountOf(projectId: string, now: Date): Promise<number> {
  const [stored, due] = await Promise.all([
    Check.countDocuments({ projectId, status: 'down' }),
    Check.countDocuments({ projectId, deadline: { $lte: now }, status: { $ne: 'down' } }),
  ]);
  return stored + due;
}

/** A project of the header's switcher; a locked one (shared/services/access.ts) counts nothing. */
export interface GlanceProject {
  id: string;
  name: string;
  down: number;
  locked: boolean;
}

/** What every page of a signed-in user shows: `res.locals.glance`. */
export interface Glance {
  projects: GlanceProject[];
  /** Down checks over all the user's open projects. */
  down: number;
}

/** The user's projects by name with each open one's down count at `now`, and their sum; locked ones count nothing. */
export async function glanceAt(viewer: Viewer, now: Date): Promise<Glance> {
  const { open, locked } = await projectsSeenBy(viewer);
  const counted = await Promise.all(open.map(async ({ project }) => ({ id: project._id, name: project.name, down: await downCountOf(project._id, now), locked: false })));
  const projects = [...counted, ...locked.map(({ project }) => ({ id: project._id, name: project.name, down: 0, locked: true }))].sort((a, b) => a.name.localeCompare(b.name));
  return { projects, down: counted.reduce((sum, p) => sum + p.down, 0) };
}

/**
 * Sends `value` as the JSON of a live poll (static/list.js) with an ETag of its bytes: a 304 with no body while
 * nothing changed.
 */
export function sendLive(req: Request, res: Response, value: unknown): void {
  const body = JSON.stringify(value);
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  res.set({ ETag: etag, 'Cache-Control': 'no-cache' });
  if (req.get('if-none-match') === etag) {
    res.status(304).end();
    return;
  }
  res.type('json').send(body);
}

/**
 * Sets `res.locals.glance` for a page (GET, not checks.json) of a signed-in user: their projects by name with each
 * one's down count.
 */
export function glanceOf(clock: Clock): RequestHandler {
  return async (req, res, next) => {
    const user = currentUser(res);
    if (user && req.method === 'GET' && !req.path.endsWith('.json')) {
      res.locals.glance = await glanceAt(user, clock());
    }
    next();
  };
}

/** A project's counts per status for the project list; `grace` is the late ones. */
export type ProjectCounts = Record<'down' | 'grace' | 'up' | 'paused' | 'new', number>;

/** The fields the counts read. */
const COUNT_FIELDS = { projectId: 1, kind: 1, timeout: 1, grace: 1, schedule: 1, tz: 1, status: 1, lastPing: 1, lastStart: 1, lastStartRid: 1, manualResume: 1 } as const;

/** A project of the list: its counts, or null when it is locked to the user (shared/services/access.ts). */
export type ListedProject = MemberProject & { counts: ProjectCounts | null };

/**
 * The user's open projects with their counts per live status at `now` (docs/checks.md, "Status"), most down first, then most
 * late, then by name; then the locked ones by name, without counts.
 */
export async function projectsWithCounts(viewer: Viewer, now: Date): Promise<ListedProject[]> {
  const { open: projects, locked } = await projectsSeenBy(viewer);
  const counts = new Map(projects.map(({ project }) => [project._id, { down: 0, grace: 0, up: 0, paused: 0, new: 0 }]));
  const docs = await Check.find({ projectId: { $in: [...counts.keys()] } }, COUNT_FIELDS).lean<Pick<CheckDoc, keyof typeof COUNT_FIELDS>[]>();
  for (const doc of docs) counts.get(doc.projectId)![liveStatus(doc, now)]++;
  const listed = projects
    .map((member) => ({ ...member, counts: counts.get(member.project._id)! }))
    .sort((a, b) => b.counts.down - a.counts.down || b.counts.grace - a.counts.grace || a.project.name.localeCompare(b.project.name));
  return [...listed, ...locked.map((member) => ({ ...member, counts: null }))];
}
