/**
 * The pages phase's checks list measurement (pages.ts): 10,000 checks seeded in the stage's project with insertMany
 * (a mix of up, late, down, paused, new and running checks over a few tags), then the list page's server time and
 * HTML size plain, searched, filtered by a tag and by a status, and in each sort; and the live update when nothing
 * changed (checks.json of the first page's rows, asked again with its ETag: 304), its bytes and time.
 */
import { randomUUID } from 'node:crypto';
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
}
