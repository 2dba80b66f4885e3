/** Slugs of check names, as the reference's v1 and v2 API store them (docs/api-reference.md, "Paths and versions"). Pure. */

/** ASCII whitespace as Python's `str.isspace()` sees it. */
const SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f ';

const DROPPED_RE = new RegExp(`[^\\w${SPACE}-]`, 'g');
const SEPARATOR_RE = new RegExp(`[${SPACE}-]+`, 'g');
const EDGE_RE = /^[-_]+|[-_]+$/g;

/** Django's `slugify` without `allow_unicode`: `Database Backup! (prod)` → `database-backup-prod`; may be `""`. */
export function slugify(name: string): string {
  const ascii = name.normalize('NFKD').replace(/\P{ASCII}/gu, '');
  return ascii.toLowerCase().replace(DROPPED_RE, '').replace(SEPARATOR_RE, '-').replace(EDGE_RE, '');
}
