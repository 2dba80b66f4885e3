/**
 * The pages phase's check page measurement (pages.ts): one check with 100,000 stored pings (the project's
 * `ping_log_limit` raised to keep them all), seeded with insertMany, every tenth a start paired with the next ping, a
 * flip every thousand pings, and one 100 KB body. Then the server time of the check page (newest, an old page by the
 * `before` cursor, filtered to fail pings), the log page, the live poll with nothing new, and the details of the
 * ping with the 100 KB body. The pages read the `{checkId, n}` index; none reads every ping.
 */
import { randomUUID } from 'node:crypto';
import { Check } from '../../shared/models/check.js';
import { Flip, type FlipDoc } from '../../shared/models/flip.js';
import { Ping, type PingDoc } from '../../shared/models/ping.js';
import { Project } from '../../shared/models/project.js';
import { slicesOf } from './common.js';
import { timePage, timingRow, type PagesStage } from './pages-stage.js';

/** Pings seeded. */
const PINGS = 100_000;
/** The ping holding the large body, and its size in bytes. */
const LARGE_N = 50_000;
const LARGE_BYTES = 100 * 1024;
/** Seconds between seeded pings. */
const EVERY_S = 60;

/** The `n`-th seeded ping (1-based), `EVERY_S` seconds apart ending now. */
function seededPing(checkId: string, n: number, now: number): PingDoc {
  const kind = n % 10 === 1 ? 'start' : n % 97 === 0 ? 'fail' : 'success';
  const body = n === LARGE_N ? Buffer.alloc(LARGE_BYTES, 'backup log line\n') : n % 3 === 0 ? Buffer.from(`run ${n}: 12 files, 3.4 GB\nok`) : null;
  return {
    checkId, n, kind, created: new Date(now - (PINGS - n) * EVERY_S * 1000), scheme: 'https', remoteAddr: '203.0.113.7', method: 'POST',
    ua: 'curl/8.5.0', body, exitStatus: null, rid: null,
  };
}

/** Seeds the check, its pings and its flips; returns the check's path. */
async function seedCheck(stage: PagesStage): Promise<string> {
  const now = Date.now();
  await Project.updateOne({ _id: stage.projectId }, { $set: { pingLogLimit: PINGS } });
  const checkId = randomUUID();
  await Check.create({
    _id: checkId, projectId: stage.projectId, badgeKey: randomUUID(), created: new Date(now - PINGS * EVERY_S * 1000), name: 'busy job',
    timeout: 3600, grace: 600, status: 'up', lastPing: new Date(now), nPings: PINGS, deadline: new Date(now + 3600_000),
  });
  const pings = Array.from({ length: PINGS }, (_, i) => seededPing(checkId, i + 1, now));
  for (const slice of slicesOf(pings)) await Ping.insertMany(slice, { lean: true });
  const flips: FlipDoc[] = Array.from({ length: PINGS / 1000 }, (_, i) => {
    const created = pings[i * 1000 + 500].created;
    const down = i % 2 === 0;
    return { checkId, created, recorded: created, processed: created, oldStatus: down ? 'up' : 'down', newStatus: down ? 'down' : 'up', reason: down ? 'fail' : '' };
  });
  await Flip.insertMany(flips, { lean: true });
  return `/projects/${stage.projectId}/checks/${checkId}/`;
}

/** Seeds a check with {@link PINGS} pings and prints the check page's figures as a table. */
export async function benchCheckPage(stage: PagesStage): Promise<void> {
  const one = await seedCheck(stage);
  stage.out(`check page, one check with ${PINGS.toLocaleString('en')} stored pings (50 a page; the log 100 a page):`);
  stage.out('| page | requests | p50 ms | p95 ms | bytes |\n|---|---|---|---|---|');
  const pages: [string, string][] = [
    ['check page, newest events', one],
    ['check page, an old page (?before=20000)', `${one}?before=20000`],
    ['check page, fail pings only (?kind=fail)', `${one}?kind=fail`],
    ['log page, newest', `${one}log/`],
    ['live poll, nothing new (events?since=…)', `${one}events?since=${PINGS}&after=${Date.now()}`],
    ['ping details, 100 KB body', `${one}pings/${LARGE_N}/`],
    ['ping body download, 100 KB', `${one}pings/${LARGE_N}/body`],
  ];
  for (const [what, path] of pages) stage.out(timingRow(what, await timePage(stage, path)));
}
