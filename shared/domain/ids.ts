/** Identifier recipes. Pure. */
import { createHash } from 'node:crypto';

/** Canonical lowercase hyphenated UUID (behaviour.md §3.1 rule 3). */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A check's `unique_key` (behaviour.md §1.4): SHA-1 hex of the first 16 hex digits of the UUID, hyphens dropped. */
export function uniqueKeyOf(uuid: string): string {
  return createHash('sha1').update(uuid.replace(/-/g, '').toLowerCase().slice(0, 16)).digest('hex');
}
