/**
 * Links about one address of an email channel: confirm it (mailed to it when it is added) and unsubscribe it (in
 * every alert, RFC 8058). A token is `<channel id>.<address, base64url>.<expiry, Unix seconds or 0>.<signature>`, the
 * signature an HMAC-SHA256 of the purpose and the rest with SECRET_KEY, compared in constant time; no lookup is
 * needed to refuse a forged one. No import of kinds.ts here: the email provider uses it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors.js';

/** What an address link does. */
export type AddressPurpose = 'confirm' | 'unsubscribe';

/** How long a confirmation link works, milliseconds: 7 days. An unsubscribe link does not expire. */
export const CONFIRM_TTL_MS = 7 * 24 * 3600 * 1000;

/** The addresses of an email channel's `address` setting (comma-separated), trimmed and lowercase. */
export function splitAddresses(list: string): string[] {
  return list.split(',').map((address) => address.trim().toLowerCase()).filter((address) => address !== '');
}

function signatureOf(purpose: AddressPurpose, payload: string, secret: string): string {
  return createHmac('sha256', secret).update(`channel-address:${purpose}:${payload}`).digest('base64url');
}

/**
 * A signed token for one address of a channel.
 *
 * @param expires - When a confirmation stops working; none for an unsubscribe link.
 */
export function addressToken(purpose: AddressPurpose, channelId: string, address: string, secret: string, expires?: Date): string {
  const seconds = expires ? Math.floor(expires.getTime() / 1000) : 0;
  const payload = `${channelId}.${Buffer.from(address).toString('base64url')}.${seconds}`;
  return `${payload}.${signatureOf(purpose, payload, secret)}`;
}

/**
 * The channel and address a token names.
 * @throws AppError(404) `this link is not valid` for a forged token or another purpose's; AppError(410) when expired.
 */
export function addressOfToken(purpose: AddressPurpose, token: string, secret: string, now: Date): { channelId: string; address: string } {
  const parts = token.split('.');
  const expected = parts.length === 4 ? Buffer.from(signatureOf(purpose, parts.slice(0, 3).join('.'), secret)) : Buffer.alloc(0);
  const given = Buffer.from(parts[3] ?? '');
  if (expected.length === 0 || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new AppError(404, 'this link is not valid: copy the whole link from the email');
  }
  const seconds = Number(parts[2]);
  if (seconds !== 0 && seconds * 1000 <= now.getTime()) throw new AppError(410, 'this link has expired: ask the project to send a new one');
  return { channelId: parts[0], address: Buffer.from(parts[1], 'base64url').toString() };
}
