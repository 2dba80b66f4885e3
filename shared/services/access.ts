/**
 * Whether a user may see a project: the one rule every path asks (docs/security.md, Project access): pages and their
 * JSON, the project list and glance, email reports and reminders, check transfers into and out of a project, status
 * page editing, wall links and invitations. A member sees a project unless it asks every member for a second factor
 * (an owner's setting) and the user has none: then it is "locked" and shows nothing of its checks anywhere.
 */
import type { MembershipDoc, Role } from '../models/membership.js';
import { Membership } from '../models/membership.js';
import { Project, type ProjectDoc } from '../models/project.js';
import type { UserDoc } from '../models/user.js';
import { hasSecondFactor } from './second-factor.js';
import type { MemberProject } from './members.js';

/** What a user may see of a project: `open` (all its role allows), `locked` (only that it needs a second factor), `none` (not a member). */
export type Visibility = 'open' | 'locked' | 'none';

/** The user fields the rule reads. */
export type Viewer = Pick<UserDoc, '_id' | 'totp' | 'webauthn'>;

/**
 * The rule itself, without I/O.
 * @param role - The user's role in the project; null when not a member (or the project is gone).
 */
export function visibilityOf(viewer: Viewer, role: Role | null, project: Pick<ProjectDoc, 'requireSecondFactor'> | null): Visibility {
  if (!role || !project) return 'none';
  return project.requireSecondFactor && !hasSecondFactor(viewer) ? 'locked' : 'open';
}

/** A project, the user's role in it and what the user may see of it. */
export interface ProjectAccessOf {
  project: ProjectDoc;
  role: Role;
  visibility: 'open' | 'locked';
}

/** The project `projectId` as the user may see it, or null when not a member (or the project is gone). */
export async function accessTo(viewer: Viewer, projectId: string): Promise<ProjectAccessOf | null> {
  const membership = await Membership.findOne({ projectId, userId: viewer._id }).lean<MembershipDoc>();
  const project = membership ? await Project.findById(projectId).lean<ProjectDoc>() : null;
  const visibility = visibilityOf(viewer, membership?.role ?? null, project);
  return visibility === 'none' ? null : { project: project!, role: membership!.role, visibility };
}

/** The user's projects by name, split into those open to them and those locked (needing a second factor they lack). */
export async function projectsSeenBy(viewer: Viewer): Promise<{ open: MemberProject[]; locked: MemberProject[] }> {
  const memberships = await Membership.find({ userId: viewer._id }).lean<MembershipDoc[]>();
  const projects = await Project.find({ _id: { $in: memberships.map((m) => m.projectId) } }).lean<ProjectDoc[]>();
  const roles = new Map(memberships.map((m) => [m.projectId, m.role]));
  const all = projects.map((project) => ({ project, role: roles.get(project._id) as Role })).sort((a, b) => a.project.name.localeCompare(b.project.name));
  const open = all.filter((m) => visibilityOf(viewer, m.role, m.project) === 'open');
  return { open, locked: all.filter((m) => !open.includes(m)) };
}
