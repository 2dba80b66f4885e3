/**
 * The unsubscribe link of a report or reminder mail (docs/reports.md): `<user id>.<kind>.<signature>`, the signature an HMAC-SHA256 of the kind
 * and user id with SECRET_KEY, compared in constant time, as the email channels' links are (shared/notify/address-links.ts). It does not expire:
 * an old mail's link still turns that mail off.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors.js';
import type { ReportKind } from '../models/report.js';

const KINDS: readonly ReportKind[] = ['report', 'reminder'];

function signatureOf(kind: ReportKind, userId: string, secret: string): string {
  return createHmac('sha256', secret).update(`report-unsubscribe:${kind}:${userId}`).digest('base64url');
}

/** The token of the link that turns `kind` off for the user. */
export function unsubscribeToken(kind: ReportKind, userId: string, secret: string): string {
  return `${userId}.${kind}.${signatureOf(kind, userId, secret)}`;
}

/**
 * The user and mail kind a token names.
 * @throws AppError(404) `this link is not valid` for a forged or mangled token.
 */
export function unsubscribeOf(token: string, secret: string): { userId: string; kind: ReportKind } {
  const [userId, kind, signature, extra] = token.split('.');
  const known = KINDS.find((k) => k === kind);
  const expected = known && userId && extra === undefined ? Buffer.from(signatureOf(known, userId, secret)) : Buffer.alloc(0);
  const given = Buffer.from(signature ?? '');
  if (!known || expected.length === 0 || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new AppError(404, 'this link is not valid: copy the whole link from the email');
  }
  return { userId, kind: known };
}
