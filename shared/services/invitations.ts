/**
 * Invitations to a project: a link `/invite/<id>.<signature>` (HMAC-SHA256 of the id with SECRET_KEY), valid for
 * {@link INVITATION_TTL_MS} and usable once, by the invited address only: by a user signed in with it, or at sign-up
 * through the link (which was mailed to it). Owners list pending invitations and revoke them.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Invitation, type InvitationDoc } from '../models/invitation.js';
import type { Role } from '../models/membership.js';
import { AppError } from '../errors.js';
import { addMember, roleOf } from './members.js';
import { normaliseEmail } from './users.js';

/** How long an invitation link works, milliseconds: 7 days. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

function signatureOf(id: string, secret: string): string {
  return createHmac('sha256', secret).update(`invitation:${id}`).digest('base64url');
}

/** The invitation's id when the token's signature is right, else null. */
function idOf(token: string, secret: string): string | null {
  const [id, signature, extra] = token.split('.');
  if (!id || !signature || extra !== undefined) return null;
  const expected = Buffer.from(signatureOf(id, secret));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
}

/**
 * Creates an invitation and returns its token (the link's last segment).
 * @throws AppError(400) for a bad address.
 */
export async function createInvitation(
  input: { projectId: string; email: string; role: Role; invitedBy: string },
  now: Date,
  secret: string,
): Promise<string> {
  const id = randomBytes(16).toString('base64url');
  await Invitation.create({
    _id: id,
    projectId: input.projectId,
    email: normaliseEmail(input.email),
    role: input.role,
    invitedBy: input.invitedBy,
    created: now,
    expires: new Date(now.getTime() + INVITATION_TTL_MS),
  });
  return `${id}.${signatureOf(id, secret)}`;
}

/**
 * The invitation behind a token, in whatever state.
 * @throws AppError(404) `this invitation link is not valid` (bad signature or unknown).
 */
export async function invitationOf(token: string, secret: string): Promise<InvitationDoc> {
  const id = idOf(token, secret);
  const invitation = id && (await Invitation.findById(id).lean<InvitationDoc>());
  if (!invitation) throw new AppError(404, 'this invitation link is not valid');
  return invitation;
}

/**
 * Refuses an invitation no longer usable at `now`.
 * @throws AppError(410) when revoked, used or expired.
 */
export function assertUsable(invitation: InvitationDoc, now: Date): void {
  if (invitation.revokedAt) throw new AppError(410, 'this invitation has been revoked');
  if (invitation.usedAt) throw new AppError(410, 'this invitation has already been used');
  if (invitation.expires.getTime() <= now.getTime()) throw new AppError(410, 'this invitation has expired');
}

/**
 * The invitation behind a token, still usable at `now`.
 * @throws as {@link invitationOf} and {@link assertUsable}.
 */
export async function usableInvitation(token: string, now: Date, secret: string): Promise<InvitationDoc> {
  const invitation = await invitationOf(token, secret);
  assertUsable(invitation, now);
  return invitation;
}

/**
 * Uses the invitation once: the user joins with the invited role (keeping a role they already had). The use is one
 * guarded write (unused, unrevoked, unexpired), so two uses at once join once.
 * @returns The project's id.
 * @throws as {@link usableInvitation}; AppError(403) when the user's address is not the invited one.
 */
export async function acceptInvitation(token: string, user: { _id: string; email: string }, now: Date, secret: string): Promise<string> {
  const invitation = await usableInvitation(token, now, secret);
  if (invitation.email !== user.email) throw new AppError(403, 'this invitation is for another email address');
  const taken = await Invitation.findOneAndUpdate(
    { _id: invitation._id, usedAt: null, revokedAt: null, expires: { $gt: now } },
    { $set: { usedAt: now } },
  ).lean<InvitationDoc>();
  if (!taken) throw new AppError(410, 'this invitation has already been used');
  if (!(await roleOf(invitation.projectId, user._id))) await addMember(invitation.projectId, user._id, invitation.role, now);
  return invitation.projectId;
}

/** A project's invitations neither used, revoked nor expired at `now`, newest first. */
export function pendingInvitations(projectId: string, now: Date): Promise<InvitationDoc[]> {
  return Invitation.find({ projectId, usedAt: null, revokedAt: null, expires: { $gt: now } }).sort({ created: -1 }).lean<InvitationDoc[]>();
}

/**
 * Revokes a pending invitation of the project.
 * @throws AppError(404) `no such invitation` when it is not the project's, or is used or revoked already.
 */
export async function revokeInvitation(projectId: string, id: string, now: Date): Promise<void> {
  const revoked = await Invitation.updateOne({ _id: id, projectId, usedAt: null, revokedAt: null }, { $set: { revokedAt: now } });
  if (revoked.modifiedCount === 0) throw new AppError(404, 'no such invitation: it may have been used or revoked');
}
