/**
 * Who may do what in a project (docs/web-app.md, roles table): memberships with roles owner, rw and ro. A project
 * always keeps at least one owner: demotions and removals run one at a time per project under a lease.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import { upsertRetrying } from '../db.js';
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
  await upsertRetrying(() => Membership.updateOne({ projectId, userId }, { $set: { role }, $setOnInsert: { created: now } }, { upsert: true }).exec());
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

/** How long one owner change may hold the project's owners lease, milliseconds; a crashed holder's lease lapses after it. */
const OWNERS_LEASE_MS = 10_000;
/** Waits between tries for a held lease, milliseconds, and how many tries before a 409. */
const LEASE_RETRY_MS = 25;
const LEASE_TRIES = 200;

/**
 * Runs `change` while holding the project's owners lease: one guarded write on the project takes it (absent or
 * lapsed), so two owner changes of one project never interleave their check and their write (two owners demoting
 * each other at once keep one owner). Released by the same token afterwards.
 * @throws AppError(409) when the lease stays held past the tries; what `change` throws.
 */
async function withOwnersLease<T>(projectId: string, change: () => Promise<T>): Promise<T> {
  const token = randomUUID();
  for (let i = 0; i < LEASE_TRIES; i += 1) {
    const now = new Date();
    const taken = await Project.updateOne(
      { _id: projectId, $or: [{ ownersLease: { $exists: false } }, { ownersLease: null }, { 'ownersLease.until': { $lte: now } }] },
      { $set: { ownersLease: { token, until: new Date(now.getTime() + OWNERS_LEASE_MS) } } },
    );
    if (taken.matchedCount === 1) {
      try {
        return await change();
      } finally {
        await Project.updateOne({ _id: projectId, 'ownersLease.token': token }, { $unset: { ownersLease: 1 } });
      }
    }
    if (!(await Project.exists({ _id: projectId }))) throw new AppError(404, 'no such project');
    await setTimeout(LEASE_RETRY_MS);
  }
  throw new AppError(409, 'the members are being changed by someone else: try again');
}

async function assertOtherOwner(projectId: string, userId: string): Promise<void> {
  const owners = await Membership.countDocuments({ projectId, role: 'owner', userId: { $ne: userId } });
  if (owners === 0) throw new AppError(400, 'a project needs at least one owner');
}

/**
 * Changes a member's role; an owner's demotion runs under the owners lease so the project keeps an owner.
 * @throws AppError(404) when not a member; AppError(400) when it would leave the project without an owner; AppError(409) as {@link withOwnersLease}.
 */
export async function setRole(projectId: string, userId: string, role: Role): Promise<void> {
  const change = async (): Promise<void> => {
    const current = await roleOf(projectId, userId);
    if (!current) throw new AppError(404, 'no such member');
    if (current === 'owner' && role !== 'owner') await assertOtherOwner(projectId, userId);
    await Membership.updateOne({ projectId, userId }, { $set: { role } });
  };
  await (role === 'owner' ? change() : withOwnersLease(projectId, change));
}

/**
 * Removes a member, under the owners lease (the member may be an owner).
 * @throws AppError(404) when not a member; AppError(400) when it is the last owner; AppError(409) as {@link withOwnersLease}.
 */
export async function removeMember(projectId: string, userId: string): Promise<void> {
  await withOwnersLease(projectId, async () => {
    const current = await roleOf(projectId, userId);
    if (!current) throw new AppError(404, 'no such member');
    if (current === 'owner') await assertOtherOwner(projectId, userId);
    await Membership.deleteOne({ projectId, userId });
  });
}
