/** Identifier recipes. Pure. */
import { createHash } from 'node:crypto';

/** Canonical lowercase hyphenated UUID (docs/api-reference.md, "Paths and versions"). */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A check's `unique_key` (docs/api-reference.md, "unique_key"): SHA-1 hex of the first 16 hex digits of the UUID, hyphens dropped. */
export function uniqueKeyOf(uuid: string): string {
  return createHash('sha1').update(uuid.replace(/-/g, '').toLowerCase().slice(0, 16)).digest('hex');
}
