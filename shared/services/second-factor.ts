/**
 * Second factors of web app users (docs/web-app.md, "Two-factor authentication"): authenticator apps (TOTP through otplib: SHA-1,
 * 6 digits, 30 s steps, one step of clock drift either way) and one-time recovery codes. A TOTP code is accepted once:
 * the step it matched is stored per user by one guarded write, so a replayed code, even within its window or raced
 * by two requests, is refused. A recovery code is used up by one guarded `$pull`.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { User, type UserDoc } from '../models/user.js';
import { AppError } from '../errors.js';

/** otplib, loaded at the first use (web processes start faster without it). */
const otp = () => import('otplib');

/** How many recovery codes a set has. */
export const RECOVERY_CODES = 10;
/** Longest name of an authenticator app, characters. */
export const MAX_FACTOR_NAME = 60;
/** Seconds of clock drift a TOTP code may have: one 30 s step either way. */
const DRIFT_SECONDS = 30;
/** A TOTP code: six digits (spaces allowed when typed). */
const TOTP_CODE = /^\d{6}$/;

/** A digest of a recovery code, as stored: case, spaces and dashes do not count. */
function digestOf(code: string): string {
  return createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('hex');
}

/** Whether the user has a second factor (an authenticator app or a security key; recovery codes alone are not one). */
export function hasSecondFactor(user: Pick<UserDoc, 'totp' | 'webauthn'>): boolean {
  return (user.totp?.length ?? 0) + (user.webauthn?.length ?? 0) > 0;
}

/** A new base32 TOTP secret of 160 bits. */
export async function newTotpSecret(): Promise<string> {
  return (await otp()).generateSecret({ length: 20 });
}

/** The `otpauth://totp/` URI an authenticator app reads from a QR code. */
export async function totpUri(email: string, secret: string, issuer: string): Promise<string> {
  return (await otp()).generateURI({ issuer, label: email, secret });
}

/**
 * Accepts a TOTP code for `secret` at most once per user: the matched step must be after the user's last accepted
 * one, and is recorded by a guarded write (a concurrent use of the same code loses).
 * @returns Whether the code was accepted.
 */
async function acceptTotp(user: UserDoc, secret: string, code: string): Promise<boolean> {
  const after = user.totpLastStep ?? undefined;
  const result = await (await otp()).verify({ secret, token: code, epochTolerance: DRIFT_SECONDS, afterTimeStep: after }).catch(() => ({ valid: false as const }));
  // A TOTP result carries the step it matched (a HOTP one, which this never asks for, would not).
  const step = result.valid && 'timeStep' in result ? result.timeStep : null;
  if (step === null) return false;
  const taken = await User.updateOne({ _id: user._id, $or: [{ totpLastStep: null }, { totpLastStep: { $lt: step } }] }, { $set: { totpLastStep: step } });
  return taken.modifiedCount === 1;
}

/**
 * Adds an authenticator app once the person has typed a code it shows. The first one comes with a new set of
 * recovery codes.
 * @returns The recovery codes to show once (empty when the user had a factor already).
 * @throws AppError(400) for an empty or too long name, or a wrong, reused or malformed code.
 */
export async function addTotp(userId: string, input: { name: string; secret: string; code: string }, now: Date): Promise<string[]> {
  const name = factorName(input.name);
  const user = await User.findById(userId).lean<UserDoc>();
  const code = input.code.replace(/\s/g, '');
  if (!user || !TOTP_CODE.test(code) || !(await acceptTotp(user, input.secret, code))) throw new AppError(400, 'that code is not right: type the 6 digits the app shows now');
  await User.updateOne({ _id: userId }, { $push: { totp: { _id: randomUUID(), name, secret: input.secret, created: now } } });
  return hasSecondFactor(user) ? [] : newRecoveryCodes(userId);
}

/**
 * Checks a name given to a second factor.
 * @returns It trimmed.
 * @throws AppError(400) when empty or longer than {@link MAX_FACTOR_NAME}.
 */
export function factorName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > MAX_FACTOR_NAME) throw new AppError(400, `name it in 1 to ${MAX_FACTOR_NAME} characters`);
  return trimmed;
}

/**
 * Removes an authenticator app or a security key; removing the last factor also drops the recovery codes.
 * @throws AppError(404) when the user has no such factor.
 */
export async function removeFactor(userId: string, factorId: string): Promise<void> {
  const removed = await User.findOneAndUpdate(
    { _id: userId, $or: [{ 'totp._id': factorId }, { 'webauthn._id': factorId }] },
    { $pull: { totp: { _id: factorId }, webauthn: { _id: factorId } } },
    { returnDocument: 'after' },
  ).lean<UserDoc>();
  if (!removed) throw new AppError(404, 'no such second factor');
  if (!hasSecondFactor(removed)) await User.updateOne({ _id: userId }, { $set: { recoveryCodes: [] } });
}

/** Replaces the user's recovery codes with {@link RECOVERY_CODES} new ones (10 base32 characters each, shown as `xxxxx-xxxxx`) and returns them. */
export async function newRecoveryCodes(userId: string): Promise<string[]> {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const chars = [...randomBytes(10)].map((byte) => alphabet[byte % 32]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  await User.updateOne({ _id: userId }, { $set: { recoveryCodes: codes.map(digestOf) } });
  return codes;
}

/**
 * Checks a second factor typed at sign-in or to confirm a change: six digits are a TOTP code of any of the user's
 * apps (once), anything else a recovery code (used up).
 * @returns Whether it was accepted.
 */
export async function verifySecondFactor(userId: string, typed: string): Promise<boolean> {
  const user = await User.findById(userId).lean<UserDoc>();
  if (!user || !hasSecondFactor(user)) return false;
  const code = typed.replace(/\s/g, '');
  if (TOTP_CODE.test(code)) {
    for (const factor of user.totp) if (await acceptTotp(user, factor.secret ?? '', code)) return true;
    return false;
  }
  if (code.length > 20) return false;
  const digest = digestOf(code);
  const used = await User.updateOne({ _id: userId, recoveryCodes: digest }, { $pull: { recoveryCodes: digest } });
  return used.modifiedCount === 1;
}
