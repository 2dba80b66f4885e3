/**
 * The pages phase's checks list measurement (pages.ts): 10,000 checks seeded in the stage's project with insertMany
 * (a mix of up, late, down, paused, new and running checks over a few tags), then the list page's server time and
 * HTML size plain, searched, filtered by a tag and by a status, and in each sort; and the live update when nothing
 * changed (checks.json of the first page's rows, asked again with its ETag: 304), its bytes and time. Then each query
 * the page makes (server/pages/checks/list/list-find.ts) alone, straight to the database: the floor the database sets.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { slicesOf } from './common.js';
import { timePage, timingRow, type PagesStage } from './pages-stage.js';

/** Checks seeded: the self-hosted per-project check limit. */
const CHECKS = 10_000;
const TAGS = ['backup', 'db', 'web', 'nightly', 'prod', 'staging', 'reports', 'etl'];
const DAY_S = 86_400;

/** The `i`-th seeded check: every 7th down, every 11th paused, every 13th new, every 17th running, the rest up. */
function seededCheck(projectId: string, i: number, now: number): Partial<CheckDoc> {
  const lastPing = new Date(now - (i % 600) * 60_000);
  const base = {
    _id: randomUUID(), projectId, badgeKey: randomUUID(), created: new Date(now - (CHECKS - i) * 1000),
    name: `job-${String(i).padStart(5, '0')}`, slug: `job-${i}`, tags: `${TAGS[i % TAGS.length]} ${TAGS[(i * 3 + 1) % TAGS.length]}`,
    timeout: DAY_S, grace: 3600, lastPing, status: 'up' as const, deadline: new Date(lastPing.getTime() + (DAY_S + 3600) * 1000),
  };
  if (i % 7 === 0) return { ...base, status: 'down', deadline: null };
  if (i % 11 === 0) return { ...base, status: 'paused', deadline: null };
  if (i % 13 === 0) return { ...base, status: 'new', lastPing: null, deadline: null };
  if (i % 17 === 0) return { ...base, lastStart: new Date(now - 30_000), lastDurationMs: 42_000 };
  return base;
}

/** Inserts `count` seeded checks into the project, a thousand per round trip. */
export async function seedChecks(projectId: string, count: number): Promise<void> {
  const now = Date.now();
  const docs = Array.from({ length: count }, (_, i) => seededCheck(projectId, i, now));
  for (const slice of slicesOf(docs)) await Check.insertMany(slice);
}

/** Seeds {@link CHECKS} checks and prints the list's figures as a table. */
export async function benchListPages(stage: PagesStage): Promise<void> {
  await seedChecks(stage.projectId, CHECKS);
  const list = `/projects/${stage.projectId}/`;
  stage.out(`checks list, ${CHECKS.toLocaleString('en')} checks in the project (100 a page):`);
  stage.out('| page | requests | p50 ms | p95 ms | bytes |\n|---|---|---|---|---|');
  const pages: [string, string][] = [
    ['plain list (first page)', ''],
    ['search by name (?q=job-04321)', '?q=job-04321'],
    ['search by UUID (?q=<uuid>)', `?q=${(await Check.findOne({ projectId: stage.projectId, name: 'job-05000' }, { _id: 1 }).lean())?._id}`],
    ['tag filter (?tag=backup)', '?tag=backup'],
    ['status filter (?status=down)', '?status=down'],
    ['status filter (?status=started)', '?status=started'],
    ['sort by name', '?sort=name'],
    ['sort by last ping', '?sort=last_ping'],
    ['sort by created', '?sort=created'],
    ['down first', '?sort=down'],
    ['tag + status + sort, page 3', '?tag=db&status=up&sort=name&page=3'],
  ];
  for (const [what, query] of pages) stage.out(timingRow(what, await timePage(stage, list + query)));

  // The live poll asks for the rows the page shows (the first page's 100, by creation) and the project's counts.
  const shown = await Check.find({ projectId: stage.projectId }, { _id: 1 }).sort({ created: 1 }).limit(100).lean<{ _id: string }[]>();
  const live = `${list}checks.json?ids=${shown.map((c) => c._id).join(',')}`;
  const first = await fetch(stage.origin + live, { headers: { cookie: stage.cookie } });
  const etag = first.headers.get('etag');
  if (!etag) throw new Error('pages: checks.json has no ETag');
  stage.out(timingRow('live update of 100 rows, first poll (checks.json, no ETag)', await timePage(stage, live)));
  const same = await timePage(stage, live, stage.requests, { 'if-none-match': etag }, 304);
  stage.out(timingRow('live update, nothing changed (checks.json with its ETag: 304)', same));
  await benchBareQueries(stage);
}

/** Times of one query run `RUNS` times: the median, milliseconds, and the documents it returned. */
const RUNS = 5;
async function timed(run: () => Promise<unknown>): Promise<{ ms: number; docs: number }> {
  const times: number[] = [];
  let result: unknown;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    result = await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(RUNS / 2)], docs: Array.isArray(result) ? result.length : 1 };
}

/** Each of the list page's queries alone (median of {@link RUNS}), as a table. */
async function benchBareQueries(stage: PagesStage): Promise<void> {
  const projectId = stage.projectId;
  const now = new Date();
  const shown = (await Check.find({ projectId }, { _id: 1 }).sort({ created: 1 }).limit(100).lean<{ _id: string }[]>()).map((c) => c._id);
  const group = (match: object, byGrace = false): Promise<unknown[]> =>
    Check.aggregate([{ $match: match }, { $group: { _id: { tags: '$tags', status: '$status', ...(byGrace ? { grace: '$grace' } : {}) }, n: { $sum: 1 } } }]).exec();
  const page = (filter: object, sort: Record<string, 1 | -1>): Promise<unknown[]> => Check.find(filter, { name: 1, status: 1 }).sort(sort).limit(100).lean().exec();
  const queries: [string, () => Promise<unknown>][] = [
    ['$group all by tags, status, grace', () => group({ projectId }, true)],
    ['$group past their deadline', () => group({ projectId, deadline: { $lte: now } })],
    ['$group running', () => group({ projectId, lastStart: { $ne: null }, deadline: { $gt: now } })],
    ['late candidates (deadline within the largest grace)', () => Check.find({ projectId, status: 'up', lastStart: null, deadline: { $gt: now, $lte: new Date(now.getTime() + 3600_000) } }, { _id: 1 }).lean().exec()],
    ['first page by created (find, sort, limit 100)', () => page({ projectId }, { created: 1, _id: 1 })],
    ['first page by name', () => page({ projectId }, { name: 1, created: 1, _id: 1 })],
    ['status down page by name', () => page({ projectId, $or: [{ status: 'down' }, { deadline: { $lte: now } }] }, { name: 1, created: 1, _id: 1 })],
    ['count stored down (status equality)', () => Check.countDocuments({ projectId, status: 'down' })],
    ['count past deadline, not down', () => Check.countDocuments({ projectId, deadline: { $lte: now }, status: { $ne: 'down' } })],
    ['count all of the project', () => Check.countDocuments({ projectId })],
    ['find 100 rows by _id $in (checks.json)', () => Check.find({ _id: { $in: shown }, projectId }).lean().exec()],
  ];
  stage.out(`bare queries of the list page, each alone (median of ${RUNS}):`);
  stage.out('| query | ms | docs returned |\n|---|---|---|');
  for (const [what, run] of queries) {
    const { ms, docs } = await timed(run);
    stage.out(`| ${what} | ${ms.toFixed(1)} | ${docs} |`);
  }
}
