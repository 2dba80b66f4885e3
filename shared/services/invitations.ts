/**
 * Invitations to a project: a link `/invite/<id>.<signature>` (HMAC-SHA256 of the id with SECRET_KEY), valid for
 * {@link INVITATION_TTL_MS} and usable once, by a user signed in with the invited address.
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
 * The invitation behind a token, still usable at `now`.
 * @throws AppError(404) `this invitation link is not valid` (bad signature or unknown); AppError(410) when expired or used.
 */
export async function usableInvitation(token: string, now: Date, secret: string): Promise<InvitationDoc> {
  const id = idOf(token, secret);
  const invitation = id && (await Invitation.findById(id).lean<InvitationDoc>());
  if (!invitation) throw new AppError(404, 'this invitation link is not valid');
  if (invitation.usedAt) throw new AppError(410, 'this invitation has already been used');
  if (invitation.expires.getTime() <= now.getTime()) throw new AppError(410, 'this invitation has expired');
  return invitation;
}

/**
 * Uses the invitation once: the user joins with the invited role (keeping a role they already had).
 * @returns The project's id.
 * @throws as {@link usableInvitation}; AppError(403) when the user's address is not the invited one.
 */
export async function acceptInvitation(token: string, user: { _id: string; email: string }, now: Date, secret: string): Promise<string> {
  const invitation = await usableInvitation(token, now, secret);
  if (invitation.email !== user.email) throw new AppError(403, 'this invitation is for another email address');
  const taken = await Invitation.findOneAndUpdate(
    { _id: invitation._id, usedAt: null, expires: { $gt: now } },
    { $set: { usedAt: now } },
  ).lean<InvitationDoc>();
  if (!taken) throw new AppError(410, 'this invitation has already been used');
  if (!(await roleOf(invitation.projectId, user._id))) await addMember(invitation.projectId, user._id, invitation.role, now);
  return invitation.projectId;
}
