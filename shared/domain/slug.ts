/**
 * Slugs derived from check names, as the reference's v1 and v2 API store them
 * (behaviour.md §7 item 5; the reference calls Django's `slugify`). Pure.
 */

/** What Python's `str.isspace()` accepts in ASCII: tab to carriage return, the file/group/record/unit separators, space. */
const SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f ';

/** Characters slugify drops: anything but ASCII word characters, whitespace and hyphens. */
const DROPPED_RE = new RegExp(`[^\\w${SPACE}-]`, 'g');

/** Runs of whitespace and hyphens, each of which becomes one hyphen. */
const SEPARATOR_RE = new RegExp(`[${SPACE}-]+`, 'g');

/** Leading and trailing hyphens and underscores. */
const EDGE_RE = /^[-_]+|[-_]+$/g;

/**
 * Django's `slugify` without `allow_unicode`: NFKD-decompose and drop what is
 * not ASCII, lowercase, drop characters other than word characters, whitespace
 * and hyphens, turn each run of whitespace and hyphens into `-`, and strip
 * leading and trailing `-` and `_`.
 *
 * @param name - A check name, for example `Database Backup! (prod)`.
 * @returns The slug, for example `database-backup-prod`; `""` when nothing is left.
 */
export function slugify(name: string): string {
  const ascii = name.normalize('NFKD').replace(/\P{ASCII}/gu, '');
  return ascii.toLowerCase().replace(DROPPED_RE, '').replace(SEPARATOR_RE, '-').replace(EDGE_RE, '');
}
