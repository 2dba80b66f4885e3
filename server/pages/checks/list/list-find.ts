/**
 * The checks list as database queries (docs/web-app.md, "The checks list"): a page's rows with one find (filter, sort,
 * skip, limit 100, the row fields; by name, the matched checks' names and ids first, sorted in code) and the status
 * counts and tag chips from three `$group`s by `tags` and stored status, never every check's whole document. The filters
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
import { applyListQuery, byName, naturalKey, LIST_STATUSES, PER_PAGE, TROUBLE, type ListQuery, type ListRow, type ListStatus } from './list-query.js';
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

/** Sorts of the database, each ending in `_id` so pages never overlap; `name` is sorted in code (findRows). */
const SORTS = {
  created: { created: 1, _id: 1 },
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
async function findRows(filter: Filter, sort: Exclude<ListQuery['sort'], 'down'>, skip: number, limit: number, now: Date): Promise<Row[]> {
  if (limit <= 0) return [];
  if (sort !== 'name') return rowsOf(await Check.find(filter, ROW_FIELDS).sort(SORTS[sort]).skip(skip).limit(limit).lean<RowDoc[]>(), now);
  // Natural name order in code (byName's, with each name's key made once): the matched checks' names, then the page's rows by id.
  const names = (await Check.find(filter, { _id: 1, name: 1, created: 1 }).lean<Array<Pick<CheckDoc, '_id' | 'name' | 'created'>>>()).map((doc) => ({ doc, key: naturalKey(doc.name) }));
  const byKey = (a: (typeof names)[number], b: (typeof names)[number]): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : byName(a.doc, b.doc));
  const ids = names.sort(byKey).slice(skip, skip + limit).map(({ doc }) => doc._id);
  const found = new Map((await Check.find({ _id: { $in: ids } }, ROW_FIELDS).lean<RowDoc[]>()).map((doc) => [doc._id, doc]));
  return rowsOf(ids.flatMap((id) => found.get(id) ?? []), now);
}

/** `statuses` as one filter at `now`: a late check is one of `lateIds`; `up` leaves them out. */
function statusesFilter(statuses: ListStatus[], now: Date, lateIds: string[]): Filter {
  const each = statuses.map((s) => (s === 'grace' ? { _id: { $in: lateIds } } : statusFilter(s, now, lateIds)));
  return each.length === 1 ? each[0] : { $or: each };
}

/**
 * The list page of `query` in `projectId` at `now`; a page past the last gives no rows (the caller asks again for the
 * last page, {@link ListPage.matched} tells which).
 */
export async function listPage(projectId: string, query: ListQuery, now: Date): Promise<ListPage> {
  const base = searchFilter(projectId, query);
  const { statuses } = query;
  const searched = query.q !== '' || query.tags.length > 0;
  const skip = (query.page - 1) * PER_PAGE;
  // A page that needs neither the late checks nor the counts is read beside the groupings.
  const alone = !statuses.includes('grace') && !statuses.includes('up');
  const filter = statuses.length ? both(base, statusesFilter(statuses, now, [])) : base;
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
  const lateKept = applyListQuery(late, { ...query, statuses: [], sort: 'name' });
  const lateIds = late.map((row) => row._id);
  const countOf = async (status: ListStatus): Promise<number> =>
    status === 'grace' ? lateKept.length : searched ? Check.countDocuments(both(base, statusFilter(status, now, lateIds))) : counts[status];
  const chips = chipsOf(byTags);

  if (statuses.length === 1 && statuses[0] === 'grace') {
    return { rows: applyListQuery(lateKept, query).slice(skip, skip + PER_PAGE), total, matched: lateKept.length, counts, chips };
  }
  if (query.sort === 'down') {
    const groups = statuses.length ? TROUBLE.filter((s) => statuses.includes(s)) : TROUBLE;
    const sizes = await Promise.all(groups.map(countOf));
    const rows: Row[] = [];
    let offset = skip;
    for (const [i, status] of groups.entries()) {
      const take = Math.min(sizes[i] - offset, PER_PAGE - rows.length);
      if (take > 0) {
        rows.push(...(status === 'grace' ? lateKept.slice(offset, offset + take) : await findRows(both(base, statusFilter(status, now, lateIds)), 'name', offset, take, now)));
      }
      offset = Math.max(0, offset - sizes[i]);
    }
    return { rows, total, matched: sizes.reduce((sum, n) => sum + n, 0), counts, chips };
  }
  const kept = async (): Promise<number> => (await Promise.all(statuses.map(countOf))).reduce((sum, n) => sum + n, 0);
  if (early) return { rows: early[1], total, matched: early[0] ?? (statuses.length ? await kept() : total), counts, chips };
  const wanted = statuses.length ? both(base, statusesFilter(statuses, now, lateIds)) : base;
  const [matched, rows] = await Promise.all([statuses.length ? kept() : total, findRows(wanted, query.sort, skip, PER_PAGE, now)]);
  return { rows, total, matched, counts, chips };
}
