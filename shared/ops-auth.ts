/**
 * Checks the `Authorization` header of operator endpoints against the admin credential or metrics token; both sides
 * are hashed first, so the constant-time comparison does not reveal lengths either.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AdminCredential } from './config-ops.js';

/** What an operator endpoint accepts; a null member is not accepted. */
export interface OperatorSecrets {
  admin: AdminCredential | null;
  /** Accepted as `Authorization: Bearer <token>`. */
  metricsToken: string | null;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Whether `given` equals `expected`, in time independent of where they differ. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** User and password of an `Authorization: Basic …` header (RFC 7617; the password may hold `:`), or null. */
export function basicCredentialOf(header: string | undefined): AdminCredential | null {
  const match = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Whether the header carries the admin credential (`Basic`) or, if `bearer` (process metrics), the metrics token. */
export function operatorAllowed(header: string | undefined, secrets: OperatorSecrets, bearer: boolean): boolean {
  const basic = basicCredentialOf(header);
  if (basic && secrets.admin) {
    // Both compared, always, so the time does not tell which one was wrong.
    const user = sameSecret(basic.user, secrets.admin.user);
    const password = sameSecret(basic.password, secrets.admin.password);
    return user && password;
  }
  const token = /^Bearer +(\S+) *$/.exec(header ?? '')?.[1];
  return bearer && token !== undefined && secrets.metricsToken !== null && sameSecret(token, secrets.metricsToken);
}
