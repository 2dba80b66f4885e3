/**
 * Links mailed to an account's address (docs/web-app.md): `<id>.<signature>`, the signature an HMAC-SHA256 of the
 * purpose and id with SECRET_KEY, compared in constant time. A link works once (one guarded write marks it used),
 * until it expires ({@link LINK_TTL_MS}), and only while the account keeps the address and the session epoch it had
 * when the link was made: a password change or an address change voids every older link.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AccountToken, type AccountTokenDoc } from '../models/account-token.js';
import { User, type UserDoc } from '../models/user.js';
import { AppError } from '../errors.js';

/** What a link does: reset the password, sign in, or confirm a new address. */
export type LinkPurpose = AccountTokenDoc['purpose'];

/** How long a link works, milliseconds: a reset 1 hour, a sign-in link 15 minutes, an address change 24 hours, its undoing 7 days. */
export const LINK_TTL_MS: Record<LinkPurpose, number> = { reset: 3600_000, signin: 900_000, email: 24 * 3600_000, undo: 7 * 24 * 3600_000 };

function signatureOf(purpose: LinkPurpose, id: string, secret: string): string {
  return createHmac('sha256', secret).update(`account-link:${purpose}:${id}`).digest('base64url');
}

/** The id of a token whose signature is right for `purpose`, else null. */
function idOf(purpose: LinkPurpose, token: string, secret: string): string | null {
  const [id, signature, extra] = token.split('.');
  if (!id || !signature || extra !== undefined) return null;
  const expected = Buffer.from(signatureOf(purpose, id, secret));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
}

/**
 * Makes a link for the user.
 *
 * @param newEmail - The address an `email` link confirms (already normalised).
 * @returns The token (the link's last segment).
 */
export async function issueLink(
  purpose: LinkPurpose,
  user: Pick<UserDoc, '_id' | 'email' | 'sessionEpoch'>,
  now: Date,
  secret: string,
  newEmail = '',
): Promise<string> {
  const id = randomBytes(18).toString('base64url');
  const expires = new Date(now.getTime() + LINK_TTL_MS[purpose]);
  await AccountToken.create({ _id: id, purpose, userId: user._id, userEmail: user.email, epoch: user.sessionEpoch ?? 0, newEmail, created: now, expires });
  return `${id}.${signatureOf(purpose, id, secret)}`;
}

/** A usable link and its user. */
export interface UsableLink {
  link: AccountTokenDoc;
  user: UserDoc;
}

/**
 * The link behind a token, usable at `now`, and its user; changes nothing.
 * @throws AppError(404) `this link is not valid` (forged, unknown, another purpose's); AppError(410) when used,
 *   expired, or the account's password or address changed since.
 */
export async function usableLink(purpose: LinkPurpose, token: string, now: Date, secret: string): Promise<UsableLink> {
  const id = idOf(purpose, token, secret);
  const link = id ? await AccountToken.findOne({ _id: id, purpose }).lean<AccountTokenDoc>() : null;
  if (!link) throw new AppError(404, 'this link is not valid: copy the whole link from the email, or ask for a new one');
  if (link.usedAt) throw new AppError(410, 'this link has already been used: ask for a new one');
  if (link.expires.getTime() <= now.getTime()) throw new AppError(410, 'this link has expired: ask for a new one');
  const user = await User.findById(link.userId).lean<UserDoc>();
  if (!user || user.email !== link.userEmail || (user.sessionEpoch ?? 0) !== link.epoch) {
    throw new AppError(410, 'this link no longer works: the account changed its password or address since it was sent');
  }
  return { link, user };
}

/**
 * Uses the link once: checks it as {@link usableLink} does, then marks it used with one guarded write, so two uses
 * at once succeed once.
 * @throws as {@link usableLink}.
 */
export async function useLink(purpose: LinkPurpose, token: string, now: Date, secret: string): Promise<UsableLink> {
  const usable = await usableLink(purpose, token, now, secret);
  const taken = await AccountToken.findOneAndUpdate(
    { _id: usable.link._id, usedAt: null, expires: { $gt: now } },
    { $set: { usedAt: now } },
  ).lean<AccountTokenDoc>();
  if (!taken) throw new AppError(410, 'this link has already been used: ask for a new one');
  return usable;
}

/**
 * Undoes an address change with the link mailed to the old address: once, within {@link LINK_TTL_MS}, whatever the
 * account did since (a password or a further address change by whoever made the change must not void it). The old
 * address comes back and every session is signed out (one write), unless another account has taken it meanwhile.
 * @returns The account's id and the address restored.
 * @throws AppError(404) for a forged or unknown link; AppError(410) when used, expired, the account is gone, or the
 *   old address belongs to another account now.
 */
export async function undoEmailChange(token: string, now: Date, secret: string): Promise<{ userId: string; email: string }> {
  const id = idOf('undo', token, secret);
  const link = id ? await AccountToken.findOne({ _id: id, purpose: 'undo' }).lean<AccountTokenDoc>() : null;
  if (!link) throw new AppError(404, 'this link is not valid: copy the whole link from the email');
  if (link.usedAt) throw new AppError(410, 'this link has already been used');
  if (link.expires.getTime() <= now.getTime()) throw new AppError(410, 'this link has expired: contact the site’s operator');
  const taken = await User.exists({ email: link.newEmail, _id: { $ne: link.userId } });
  if (taken) throw new AppError(410, 'the old address belongs to another account now: contact the site’s operator');
  const used = await AccountToken.findOneAndUpdate({ _id: link._id, usedAt: null }, { $set: { usedAt: now } }).lean<AccountTokenDoc>();
  if (!used) throw new AppError(410, 'this link has already been used');
  const restored = await User.updateOne({ _id: link.userId }, { $set: { email: link.newEmail }, $inc: { sessionEpoch: 1 } });
  if (restored.matchedCount === 0) throw new AppError(410, 'this account no longer exists');
  return { userId: link.userId, email: link.newEmail };
}
