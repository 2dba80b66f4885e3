/**
 * Who may do what in a project (README, Web app, roles table): memberships with roles owner, rw and ro. A project
 * always keeps at least one owner.
 */
import { Membership, type MembershipDoc, type Role } from '../models/membership.js';
import { Project, type ProjectDoc } from '../models/project.js';
import { User, type UserDoc } from '../models/user.js';
import { AppError } from '../errors.js';
import { createProject, type NewProject } from './projects.js';

/** What each role may do; every page and the endpoints it calls check one of these. */
export const CAN = {
  /** See checks, statuses, flips (every role). */
  read: (role: Role): boolean => role === 'owner' || role === 'rw' || role === 'ro',
  /** Create, edit, pause, delete checks; see the ping key and ping URLs. */
  write: (role: Role): boolean => role === 'owner' || role === 'rw',
  /** Rename or delete the project, manage members and API keys. */
  manage: (role: Role): boolean => role === 'owner',
};

/** The user's role in the project, or null when not a member. */
export async function roleOf(projectId: string, userId: string): Promise<Role | null> {
  const membership = await Membership.findOne({ projectId, userId }).lean<MembershipDoc>();
  return membership?.role ?? null;
}

/** Makes the user a member with `role` (replacing a role they had). */
export async function addMember(projectId: string, userId: string, role: Role, now: Date): Promise<void> {
  await Membership.updateOne({ projectId, userId }, { $set: { role }, $setOnInsert: { created: now } }, { upsert: true });
}

/** Creates a project whose owner is the user. */
export async function createOwnedProject(userId: string, name: string, now: Date): Promise<NewProject> {
  const created = await createProject({ name });
  await addMember(created.project._id, userId, 'owner', now);
  return created;
}

/** A project the user belongs to, with the role. */
export interface MemberProject {
  project: ProjectDoc;
  role: Role;
}

/** The user's projects by name. */
export async function projectsOf(userId: string): Promise<MemberProject[]> {
  const memberships = await Membership.find({ userId }).lean<MembershipDoc[]>();
  const projects = await Project.find({ _id: { $in: memberships.map((m) => m.projectId) } }).lean<ProjectDoc[]>();
  const roles = new Map(memberships.map((m) => [m.projectId, m.role]));
  return projects
    .map((project) => ({ project, role: roles.get(project._id) as Role }))
    .sort((a, b) => a.project.name.localeCompare(b.project.name));
}

/** A member as the members page lists them. */
export interface Member {
  userId: string;
  email: string;
  role: Role;
}

/** The project's members, owners first, then by address. */
export async function membersOf(projectId: string): Promise<Member[]> {
  const memberships = await Membership.find({ projectId }).lean<MembershipDoc[]>();
  const users = await User.find({ _id: { $in: memberships.map((m) => m.userId) } }).lean<UserDoc[]>();
  const emails = new Map(users.map((u) => [u._id, u.email]));
  const order = (role: Role): number => ['owner', 'rw', 'ro'].indexOf(role);
  return memberships
    .map((m) => ({ userId: m.userId, email: emails.get(m.userId) ?? '(deleted user)', role: m.role }))
    .sort((a, b) => order(a.role) - order(b.role) || a.email.localeCompare(b.email));
}

async function assertOtherOwner(projectId: string, userId: string): Promise<void> {
  const owners = await Membership.countDocuments({ projectId, role: 'owner', userId: { $ne: userId } });
  if (owners === 0) throw new AppError(400, 'a project needs at least one owner');
}

/**
 * Changes a member's role.
 * @throws AppError(404) when not a member; AppError(400) when it would leave the project without an owner.
 */
export async function setRole(projectId: string, userId: string, role: Role): Promise<void> {
  const current = await roleOf(projectId, userId);
  if (!current) throw new AppError(404, 'no such member');
  if (current === 'owner' && role !== 'owner') await assertOtherOwner(projectId, userId);
  await Membership.updateOne({ projectId, userId }, { $set: { role } });
}

/**
 * Removes a member.
 * @throws AppError(404) when not a member; AppError(400) when it is the last owner.
 */
export async function removeMember(projectId: string, userId: string): Promise<void> {
  const current = await roleOf(projectId, userId);
  if (!current) throw new AppError(404, 'no such member');
  if (current === 'owner') await assertOtherOwner(projectId, userId);
  await Membership.deleteOne({ projectId, userId });
}
