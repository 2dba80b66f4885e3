/**
 * The checks list as database queries (docs/web-app.md, "The checks list"): a page's rows with one find (filter,
 * sort, skip, limit 100, the row fields) and the status counts and tag chips from three `$group`s by the `tags` string
 * and stored status, so a request transfers a page and a few groups, never every check of the project. The filters
 * use stored fields and comparisons with `now` only, served by the (projectId, …) indexes of shared/models/check.ts.
 *
 * Live status from stored fields (docs/checks.md, "Status", shared/domain/status.ts liveStatus), `deadline` being the stored
 * going-down moment (grace start including a run in progress, + grace; null when none):
 * - down: stored `down`, or `deadline` at or before now (the deadline job flips it a moment later);
 * - started: a run (`lastStart`) of an `up` or `new` check whose deadline is ahead;
 * - paused, new: stored so and not down;
 * - grace (late): stored `up`, no run, regular grace start at or before now, deadline after; grace start is deadline - grace (two
 *   fields), so the superset "deadline within the project's largest grace" is read and refined with liveStatus;
 * - up: stored `up`, no run, not down and not late.
 */
import { Check, type CheckDoc } from '../../../../shared/models/check.js';
import { liveStatus } from '../../../../shared/domain/status.js';
import { applyListQuery, LIST_STATUSES, PER_PAGE, TROUBLE, type ListQuery, type ListRow, type ListStatus } from './list-query.js';
import { UUID_RE } from '../../../../shared/domain/ids.js';
import { chipsOf, countsByTags, groupsOf, zeroCounts, type Chip, type Counts } from './list-counts.js';

/** The fields a row reads: enough for its live status and its cells. */
export const ROW_FIELDS = {
  _id: 1, name: 1, slug: 1, tags: 1, kind: 1, timeout: 1, grace: 1, schedule: 1, tz: 1, status: 1, lastPing: 1,
  lastStart: 1, lastStartRid: 1, lastDurationMs: 1, manualResume: 1, created: 1, channels: 1,
} as const;
export type RowDoc = Pick<CheckDoc, keyof typeof ROW_FIELDS>;
/** A row of the list: the projection, its live status and run. */
export type Row = RowDoc & ListRow;
/** A filter of checks. */
type Filter = Record<string, unknown>;

/** The projection's documents as rows at `now`. */
export function rowsOf(docs: RowDoc[], now: Date): Row[] {
  return docs.map((stored) => {
    // Fields a document may lack (written before they existed): their schema defaults.
    const doc = { ...stored, slug: stored.slug ?? '', tags: stored.tags ?? '', lastPing: stored.lastPing ?? null, lastStart: stored.lastStart ?? null, channels: stored.channels ?? [] };
    const live = liveStatus(doc, now);
    return { ...doc, live, running: doc.lastStart !== null && live !== 'down' };
  });
}

/** `a` and `b` both: keys in both (or `$and`) go into `$and`, the rest stay plain so they can use an index. */
function both(a: Filter, b: Filter): Filter {
  const out: Filter = { ...a };
  const and: unknown[] = Array.isArray(a.$and) ? [...(a.$and as unknown[])] : [];
  for (const [key, value] of Object.entries(b)) {
    if (key === '$and' && Array.isArray(value)) and.push(...(value as unknown[]));
    else if (key in out) and.push({ [key]: value });
    else out[key] = value;
  }
  if (and.length) out.$and = and;
  return out;
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The filter of the query's search and tags in `projectId`: a UUID is its check (`_id`), other text a
 * case-insensitive part of the name or slug; each tag a whole word of the space-separated `tags` (a tag with a space
 * matches none).
 */
export function searchFilter(projectId: string, query: Pick<ListQuery, 'q' | 'tags'>): Filter {
  const filter: Filter = { projectId };
  const and: Filter[] = [];
  if (UUID_RE.test(query.q.toLowerCase())) filter._id = query.q.toLowerCase();
  else if (query.q !== '') {
    const part = new RegExp(escaped(query.q), 'i');
    and.push({ $or: [{ name: part }, { slug: part }] });
  }
  for (const tag of query.tags) and.push(/\s/.test(tag) ? { _id: { $in: [] } } : { tags: new RegExp(`(^|\\s)${escaped(tag)}(\\s|$)`) });
  if (and.length) filter.$and = and;
  return filter;
}

const notDue = (now: Date): Filter[] => [{ deadline: null }, { deadline: { $gt: now } }];

/** The stored-field filter of a shown status but `grace` at `now`; `up` leaves out the `late` checks' ids. */
export function statusFilter(status: Exclude<ListStatus, 'grace'>, now: Date, late: string[]): Filter {
  switch (status) {
    case 'down':
      return { $or: [{ status: 'down' }, { deadline: { $lte: now } }] };
    case 'started':
      return { lastStart: { $ne: null }, status: { $in: ['up', 'new'] }, deadline: { $gt: now } };
    case 'paused':
      return { status: 'paused', $or: notDue(now) };
    case 'new':
      return { status: 'new', lastStart: null };
    case 'up':
      return { status: 'up', lastStart: null, $or: notDue(now), _id: { $nin: late } };
  }
}

/** Sorts of the database, each ending in `_id` so pages never overlap; names in code-point order. */
const SORTS = {
  created: { created: 1, _id: 1 },
  name: { name: 1, created: 1, _id: 1 },
  last_ping: { lastPing: -1, name: 1, created: 1, _id: 1 },
} as const;

/** The project's late checks at `now`: the superset of deadlines within `maxGrace` seconds, refined. */
async function lateRows(projectId: string, now: Date, maxGrace: number): Promise<Row[]> {
  if (maxGrace <= 0) return [];
  const filter: Filter = { projectId, status: 'up', lastStart: null, deadline: { $gt: now, $lte: new Date(now.getTime() + maxGrace * 1000) } };
  return rowsOf(await Check.find(filter, ROW_FIELDS).lean<RowDoc[]>(), now).filter((row) => row.live === 'grace');
}

/** What the list page shows of a project at one moment. */
export interface ListPage {
  /** The page's rows (at most {@link PER_PAGE}). */
  rows: Row[];
  /** Checks in the project. */
  total: number;
  /** Checks the query keeps. */
  matched: number;
  /** Checks of each shown status in the project. */
  counts: Counts;
  chips: Chip[];
}

/** The rows of `filter` sorted by `sort`, `skip` of them skipped, at most `limit`. */
async function findRows(filter: Filter, sort: keyof typeof SORTS, skip: number, limit: number, now: Date): Promise<Row[]> {
  if (limit <= 0) return [];
  return rowsOf(await Check.find(filter, ROW_FIELDS).sort(SORTS[sort]).skip(skip).limit(limit).lean<RowDoc[]>(), now);
}

/**
 * The list page of `query` in `projectId` at `now`.
 *
 * @throws AppError(400) from `pageCheck` when the page is past the last (it gets the number of matched checks).
 */
export async function listPage(projectId: string, query: ListQuery, now: Date, pageCheck: (matched: number) => void): Promise<ListPage> {
  const base = searchFilter(projectId, query);
  const searched = query.q !== '' || query.tags.length > 0;
  const skip = (query.page - 1) * PER_PAGE;
  // A page that needs neither the late checks nor the counts is read beside the groupings.
  const alone = query.status !== 'grace' && query.status !== 'up';
  const filter = query.status && query.status !== 'grace' ? both(base, statusFilter(query.status, now, [])) : base;
  const [[all, due, running], early] = await Promise.all([
    Promise.all([
      groupsOf({ projectId }, true),
      groupsOf({ projectId, deadline: { $lte: now } }),
      groupsOf({ projectId, lastStart: { $ne: null }, deadline: { $gt: now } }),
    ]),
    alone && query.sort !== 'down' ? Promise.all([searched ? Check.countDocuments(filter) : null, findRows(filter, query.sort, skip, PER_PAGE, now)]) : null,
  ]);
  const late = await lateRows(projectId, now, Math.max(0, ...all.map((g) => g._id.grace ?? 0)));
  const byTags = countsByTags(all, due, running, late);
  const counts = zeroCounts();
  for (const c of byTags.values()) for (const s of LIST_STATUSES) counts[s] += c[s];
  const total = all.reduce((sum, g) => sum + g.n, 0);
  const lateKept = applyListQuery(late, { ...query, status: null, sort: 'name' });
  const lateIds = late.map((row) => row._id);
  const countOf = async (status: ListStatus): Promise<number> =>
    status === 'grace' ? lateKept.length : searched ? Check.countDocuments(both(base, statusFilter(status, now, lateIds))) : counts[status];

  let rows: Row[];
  let matched: number;
  if (query.status === 'grace') {
    matched = lateKept.length;
    pageCheck(matched);
    rows = applyListQuery(lateKept, query).slice(skip, skip + PER_PAGE);
  } else if (query.sort === 'down') {
    const groups = query.status ? [query.status] : TROUBLE;
    const sizes = await Promise.all(groups.map(countOf));
    matched = sizes.reduce((sum, n) => sum + n, 0);
    pageCheck(matched);
    rows = [];
    let offset = skip;
    for (const [i, status] of groups.entries()) {
      const take = Math.min(sizes[i] - offset, PER_PAGE - rows.length);
      if (take > 0) {
        rows.push(...(status === 'grace' ? lateKept.slice(offset, offset + take) : await findRows(both(base, statusFilter(status, now, lateIds)), 'name', offset, take, now)));
      }
      offset = Math.max(0, offset - sizes[i]);
    }
  } else if (early) {
    matched = early[0] ?? (query.status ? counts[query.status] : total);
    pageCheck(matched);
    rows = early[1];
  } else {
    const wanted = query.status ? both(base, statusFilter(query.status, now, lateIds)) : base;
    const [n, found] = await Promise.all([query.status ? countOf(query.status) : total, findRows(wanted, query.sort, skip, PER_PAGE, now)]);
    matched = n;
    pageCheck(matched);
    rows = found;
  }
  return { rows, total, matched, counts, chips: chipsOf(byTags) };
}
