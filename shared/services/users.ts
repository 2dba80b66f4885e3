/**
 * Accounts of the web app: creating users, checking a password, changing it. Passwords are hashed with argon2id
 * (the argon2 package's defaults) and never stored, logged or returned.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import argon2 from 'argon2';
import Joi from 'joi';
import { User, type UserDoc } from '../models/user.js';
import { AppError } from '../errors.js';
import { isDjangoHash, verifyDjangoPassword } from './django-passwords.js';

/** Fewest characters of a password. */
export const MIN_PASSWORD_LENGTH = 8;
/** Most characters of a password: bounds the hashing work a request can ask for. */
export const MAX_PASSWORD_LENGTH = 128;

const emailSchema: Joi.StringSchema<string> = Joi.string().trim().lowercase().email({ tlds: false }).max(254).required();

/** A hash of no one's password, verified when an address is unknown so both answers take as long. */
const decoyHash = argon2.hash(randomBytes(16).toString('hex'));

/**
 * The address as stored: trimmed and lowercase.
 * @throws AppError(400) `enter a valid email address`.
 */
export function normaliseEmail(email: unknown): string {
  const result = emailSchema.validate(email);
  if (result.error) throw new AppError(400, 'enter a valid email address');
  return result.value;
}

/**
 * Refuses a password outside the length limits.
 * @throws AppError(400) naming the limit.
 */
export function assertPassword(password: unknown): asserts password is string {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
    throw new AppError(400, `a password has at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) throw new AppError(400, `a password has at most ${MAX_PASSWORD_LENGTH} characters`);
}

/**
 * Creates a user.
 * @returns The user, or null when the address already has an account (callers must not tell which).
 * @throws AppError(400) for a bad address or password.
 */
export async function createUser(email: string, password: string, now: Date): Promise<UserDoc | null> {
  const address = normaliseEmail(email);
  assertPassword(password);
  // Hash first either way, so a taken address answers no faster than a free one.
  const passwordHash = await argon2.hash(password);
  if (await User.exists({ email: address })) return null;
  try {
    const user = await User.create({ _id: randomUUID(), email: address, passwordHash, created: now });
    return user.toObject<UserDoc>();
  } catch (err) {
    if ((err as { code?: number }).code === 11000) return null;
    throw err;
  }
}

/** A password of 20 URL-safe characters, for `hc-admin user create` without `--password-stdin`. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/** The user with this address and password, or null (unknown address and wrong password alike, in about the same time). */
export async function authenticate(email: unknown, password: unknown): Promise<UserDoc | null> {
  if (typeof password !== 'string' || password.length > MAX_PASSWORD_LENGTH) return null;
  let address: string;
  try {
    address = normaliseEmail(email);
  } catch {
    return null;
  }
  const user = await User.findOne({ email: address }).lean<UserDoc>();
  if (!user) {
    await argon2.verify(await decoyHash, password);
    return null;
  }
  return (await passwordMatches(user, password)) ? user : null;
}

/**
 * Whether `password` is the user's. A Django hash (an account imported from Healthchecks, docs/migrating.md) that matches is
 * replaced by our argon2id hash, guarded by the old value so a concurrent change wins.
 */
async function passwordMatches(user: Pick<UserDoc, '_id' | 'passwordHash'>, password: string): Promise<boolean> {
  if (!isDjangoHash(user.passwordHash)) return argon2.verify(user.passwordHash, password);
  if (!(await verifyDjangoPassword(user.passwordHash, password))) return false;
  await User.updateOne({ _id: user._id, passwordHash: user.passwordHash }, { $set: { passwordHash: await argon2.hash(password) } });
  return true;
}

/** The user, or null when deleted. */
export function findUser(id: string): Promise<UserDoc | null> {
  return User.findById(id).lean<UserDoc>();
}

/**
 * Replaces a user's password after checking the current one, and raises the session epoch (signing out the user's
 * other sessions).
 * @returns The new session epoch, for the session that made the change.
 * @throws AppError(400) `the current password is wrong`, or for a new password outside the limits.
 */
export async function changePassword(userId: string, current: unknown, next: unknown): Promise<number> {
  const user = await User.findById(userId).lean<UserDoc>();
  if (!user || typeof current !== 'string' || !(await passwordMatches(user, current))) {
    throw new AppError(400, 'the current password is wrong');
  }
  assertPassword(next);
  const updated = await User.findOneAndUpdate(
    { _id: userId },
    { $set: { passwordHash: await argon2.hash(next) }, $inc: { sessionEpoch: 1 } },
    { returnDocument: 'after' },
  ).lean<UserDoc>();
  return updated?.sessionEpoch ?? 0;
}

/** The user with this address (normalised first), or null: unknown, or not an address at all. */
export async function userByEmail(email: unknown): Promise<UserDoc | null> {
  try {
    return await User.findOne({ email: normaliseEmail(email) }).lean<UserDoc>();
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}

/**
 * Sets a new password without the current one (a reset link proved the address) and raises the session epoch,
 * signing out every session; only while the user still has `epoch` and `email` (one guarded write).
 * @returns The new session epoch, for the session the reset starts.
 * @throws AppError(400) for a password outside the limits; AppError(410) when the account changed meanwhile.
 */
export async function resetPassword(user: Pick<UserDoc, '_id' | 'email' | 'sessionEpoch'>, password: unknown): Promise<number> {
  assertPassword(password);
  const passwordHash = await argon2.hash(password);
  const updated = await User.findOneAndUpdate(
    { _id: user._id, email: user.email, sessionEpoch: user.sessionEpoch ?? 0 },
    { $set: { passwordHash }, $inc: { sessionEpoch: 1 } },
    { returnDocument: 'after' },
  ).lean<UserDoc>();
  if (!updated) throw new AppError(410, 'this link no longer works: the account changed its password or address since it was sent');
  return updated.sessionEpoch ?? 0;
}

/**
 * Changes a user's address to `newEmail` (normalised), while the user still has `email`, and raises the session
 * epoch (the address is a credential: every other session is signed out).
 * @returns The new session epoch, for the session that made the change; null when the address belongs to an account
 *   now (callers must not tell who asked).
 * @throws AppError(410) when the account's address changed meanwhile.
 */
export async function changeEmail(user: Pick<UserDoc, '_id' | 'email'>, newEmail: string): Promise<number | null> {
  const address = normaliseEmail(newEmail);
  // Looked up first as well: the unique index settles a race, but some MongoDB-compatible servers report that
  // violation on an update as an internal error rather than 11000.
  if (await User.exists({ email: address })) return null;
  try {
    const updated = await User.findOneAndUpdate({ _id: user._id, email: user.email }, { $set: { email: address }, $inc: { sessionEpoch: 1 } }, { returnDocument: 'after' }).lean<UserDoc>();
    if (!updated) throw new AppError(410, 'this link no longer works: the account changed its address since it was sent');
    return updated.sessionEpoch ?? 0;
  } catch (err) {
    if ((err as { code?: number }).code === 11000) return null;
    throw err;
  }
}
