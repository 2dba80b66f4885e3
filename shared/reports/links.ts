/**
 * The unsubscribe link of a report or reminder mail (docs/reports.md): `<user id>.<kind>.<expiry, Unix seconds>.<signature>`, the signature an
 * HMAC-SHA256 of the kind, user id and expiry with SECRET_KEY, compared in constant time, as the email channels' links are
 * (shared/notify/address-links.ts). It works for {@link UNSUBSCRIBE_TTL_MS} after the mail was made, and names no address.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors.js';
import type { ReportKind } from '../models/report.js';

const KINDS: readonly ReportKind[] = ['report', 'reminder'];

/** How long an unsubscribe link works, milliseconds: a year. */
export const UNSUBSCRIBE_TTL_MS = 365 * 24 * 3600_000;

function signatureOf(kind: ReportKind, userId: string, expiry: string, secret: string): string {
  return createHmac('sha256', secret).update(`report-unsubscribe:${kind}:${userId}:${expiry}`).digest('base64url');
}

/** The token of the link that turns `kind` off for the user, made at `now` (a mail's build time). */
export function unsubscribeToken(kind: ReportKind, userId: string, secret: string, now: Date): string {
  const expiry = String(Math.floor((now.getTime() + UNSUBSCRIBE_TTL_MS) / 1000));
  return `${userId}.${kind}.${expiry}.${signatureOf(kind, userId, expiry, secret)}`;
}

/**
 * The user and mail kind a token names.
 * @throws AppError(404) `this link is not valid` for a forged or mangled token; AppError(410) once it has expired.
 */
export function unsubscribeOf(token: string, secret: string, now: Date): { userId: string; kind: ReportKind } {
  const [userId, kind, expiry, signature, extra] = token.split('.');
  const known = KINDS.find((k) => k === kind);
  const wellFormed = known && userId && /^\d{1,12}$/.test(expiry ?? '') && extra === undefined;
  const expected = wellFormed ? Buffer.from(signatureOf(known, userId, expiry, secret)) : Buffer.alloc(0);
  const given = Buffer.from(signature ?? '');
  if (!known || expected.length === 0 || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new AppError(404, 'this link is not valid: copy the whole link from the email');
  }
  if (Number(expiry) * 1000 <= now.getTime()) throw new AppError(410, 'this link has expired: turn the mail off on your account page');
  return { userId, kind: known };
}
