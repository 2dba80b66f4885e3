/**
 * The checks list's query (docs/web-app.md, "The checks list"): search (`q`: name, slug or UUID), tags (`tag`, repeatable,
 * every one required), statuses (`status`, repeatable, any one kept), sort (`sort`), page (`page`, 100 rows each)
 * and which ping URL the rows show (`urls`: `uuid` or `slug`), parsed from the URL, and
 * applied to rows. Pure: the rows' statuses are computed by the caller at one moment. The database does the same with
 * the filters and sorts of list-find.ts; {@link applyListQuery} is their meaning on rows read (the late ones).
 */
import { AppError } from '../../../../shared/errors.js';
import type { LiveStatus } from '../../../../shared/domain/status.js';
import { UUID_RE } from '../../../../shared/domain/ids.js';

/** Rows per page. */
export const PER_PAGE = 100;
/** Longest search accepted, characters. */
const MAX_Q = 200;

/** The statuses a list filters by: the live status (docs/checks.md, "Status"), and `started` for a run in progress. */
export const LIST_STATUSES = ['down', 'grace', 'up', 'started', 'paused', 'new'] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];
/** The sorts: creation (the API's order), name, last ping (newest first), and down first (then late, then by name). */
export const LIST_SORTS = ['created', 'name', 'last_ping', 'down'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/** A parsed list query. */
export interface ListQuery {
  q: string;
  tags: string[];
  /** Statuses to keep, in {@link LIST_STATUSES} order; empty keeps every status. */
  statuses: ListStatus[];
  sort: ListSort;
  /** 1-based. */
  page: number;
  /** The ping URL the rows show: by UUID, or by slug where the check has one. */
  urls: 'uuid' | 'slug';
}

/** What the list knows of a check to filter and sort it. */
export interface ListRow {
  _id: string;
  name: string;
  slug: string;
  tags: string;
  created: Date;
  lastPing: Date | null;
  /** The live status at the request's moment. */
  live: LiveStatus;
  /** A start ping without its end yet (and not overrun into down). */
  running: boolean;
}

const many = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
const one = (value: unknown): string | undefined => (Array.isArray(value) ? String(value[0]) : typeof value === 'string' ? value : undefined);

/**
 * The list query of `query` (Express's `req.query`); empty or missing values take the defaults.
 *
 * @throws AppError(400) with the reason for an unknown status or sort, a page that is not a whole number from 1, or a
 * search over 200 characters.
 */
export function parseListQuery(query: Record<string, unknown>): ListQuery {
  const q = (one(query.q) ?? '').trim();
  if (q.length > MAX_Q) throw new AppError(400, `the search is too long (at most ${MAX_Q} characters)`);
  const tags = [...new Set(many(query.tag).map((t) => t.trim()).filter((t) => t !== ''))];
  const asked = many(query.status).filter((s) => s !== '');
  const unknown = asked.find((s) => !(LIST_STATUSES as readonly string[]).includes(s));
  if (unknown !== undefined) throw new AppError(400, `unknown status filter “${unknown}”: use one of ${LIST_STATUSES.join(', ')}`);
  const sort = one(query.sort) || 'created';
  if (!(LIST_SORTS as readonly string[]).includes(sort)) throw new AppError(400, `unknown sort “${sort}”: use one of ${LIST_SORTS.join(', ')}`);
  const pageText = one(query.page) || '1';
  if (!/^[1-9]\d{0,5}$/.test(pageText)) throw new AppError(400, `no page “${pageText}”: pages are numbered from 1`);
  const statuses = LIST_STATUSES.filter((s) => asked.includes(s));
  return { q, tags, statuses, sort: sort as ListSort, page: Number(pageText), urls: one(query.urls) === 'slug' ? 'slug' : 'uuid' };
}

/** The status a row shows and filters by: `started` for a run in progress, else the live status. */
export function shownStatusOf(row: Pick<ListRow, 'live' | 'running'>): ListStatus {
  return row.running && row.live !== 'paused' ? 'started' : row.live;
}

/** Trouble order of {@link ListStatus}es, worst first: a tag's chip takes its checks' worst. */
export const TROUBLE: readonly ListStatus[] = ['down', 'grace', 'started', 'up', 'new', 'paused'];

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
/**
 * A name's key in natural order, as people read names: accents and case ignored, each run of digits compared as a
 * number ("a" before "B", "check 2" before "check 10"). A plain string comparison of two keys gives the order.
 */
export function naturalKey(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\d+/g, (digits) => digits.replace(/^0+(?=\d)/, '').padStart(20, '0'));
}
/**
 * The name order of the list: natural name order ({@link naturalKey}), then creation, then `_id`, so pages never
 * overlap. The embedded database ignores a find's collation, so list-find.ts sorts by name with these keys in code.
 */
export const byName = (a: Pick<ListRow, 'name' | 'created' | '_id'>, b: Pick<ListRow, 'name' | 'created' | '_id'>): number =>
  compare(naturalKey(a.name), naturalKey(b.name)) || a.created.getTime() - b.created.getTime() || compare(a._id, b._id);
const SORTERS: Record<ListSort, (a: ListRow, b: ListRow) => number> = {
  created: (a, b) => a.created.getTime() - b.created.getTime(),
  name: byName,
  last_ping: (a, b) => (b.lastPing?.getTime() ?? 0) - (a.lastPing?.getTime() ?? 0) || byName(a, b),
  down: (a, b) => TROUBLE.indexOf(shownStatusOf(a)) - TROUBLE.indexOf(shownStatusOf(b)) || byName(a, b),
};

/** Whether `row` matches the search: a UUID matches its check, other text a case-insensitive part of the name or slug. */
function matches(row: ListRow, q: string): boolean {
  if (q === '') return true;
  const needle = q.toLowerCase();
  if (UUID_RE.test(needle)) return row._id === needle;
  return row.name.toLowerCase().includes(needle) || row.slug.toLowerCase().includes(needle);
}

/** The rows the query keeps (search, every tag, status), sorted; the page is the caller's slice. */
export function applyListQuery<T extends ListRow>(rows: T[], query: ListQuery): T[] {
  const kept = rows.filter((row) => {
    if (query.statuses.length > 0 && !query.statuses.includes(shownStatusOf(row))) return false;
    if (query.tags.length > 0) {
      const own = row.tags.split(/\s+/);
      if (!query.tags.every((tag) => own.includes(tag))) return false;
    }
    return matches(row, query.q);
  });
  return kept.sort(SORTERS[query.sort]);
}

/** The query as URL search parameters (defaults left out), with `change` applied: what links and redirects keep. */
export function listSearch(query: ListQuery, change: Partial<ListQuery> = {}): string {
  const next = { ...query, ...change };
  const params = new URLSearchParams();
  if (next.q) params.set('q', next.q);
  for (const tag of next.tags) params.append('tag', tag);
  for (const status of next.statuses) params.append('status', status);
  if (next.sort !== 'created') params.set('sort', next.sort);
  if (next.page > 1) params.set('page', String(next.page));
  if (next.urls === 'slug') params.set('urls', 'slug');
  const text = params.toString();
  return text ? `?${text}` : '';
}
