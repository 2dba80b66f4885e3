/**
 * The pages phase's charts measurement (pages.ts): a check with 10,000 runs (20,000 pings: a start and its success
 * or, every 10th run, its fail, 10 minutes apart, 30 to 89 s long) and a 1-hour downtime every 5 days over 90 days,
 * seeded with insertMany, its project's ping_log_limit raised to keep them all; then the server time of the check
 * page (its charts read the newest 400 pings and 3 months of flips) and of the project timeline.
 */
import { randomUUID } from 'node:crypto';
import { Check } from '../../shared/models/check.js';
import { Ping, type PingDoc } from '../../shared/models/ping.js';
import { Flip, type FlipDoc } from '../../shared/models/flip.js';
import { Project } from '../../shared/models/project.js';
import { slicesOf } from './common.js';
import { timePage, timingRow, type PagesStage } from './pages-stage.js';

/** Runs seeded, two pings each. */
const RUNS = 10_000;
const RUN_EVERY_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

/** The 2 pings of run `i` (oldest first), its start at `start`. */
function runPings(checkId: string, i: number, start: number): Array<Partial<PingDoc>> {
  const ping = { checkId, scheme: 'http', remoteAddr: '127.0.0.1', method: 'GET', ua: 'curl/8', body: null, exitStatus: null, rid: null };
  const end = start + (30 + (i % 60)) * 1000;
  return [
    { ...ping, n: 2 * i + 1, kind: 'start', created: new Date(start) },
    { ...ping, n: 2 * i + 2, kind: i % 10 === 9 ? 'fail' : 'success', created: new Date(end) },
  ];
}

/** A 1-hour downtime every 5 days over the last 90 days, after the check came up. */
function downtimes(checkId: string, now: number): FlipDoc[] {
  const flip = (at: number, oldStatus: FlipDoc['oldStatus'], newStatus: FlipDoc['newStatus']): FlipDoc => ({ checkId, created: new Date(at), recorded: new Date(at), processed: new Date(at), oldStatus, newStatus, reason: '' });
  const flips = [flip(now - RUNS * RUN_EVERY_MS, 'new', 'up')];
  for (let at = now - 90 * DAY_MS; at < now - DAY_MS; at += 5 * DAY_MS) flips.push(flip(at, 'up', 'down'), flip(at + 3_600_000, 'down', 'up'));
  return flips;
}

/** Seeds the check with {@link RUNS} runs and its flips, and prints the check page's and timeline's figures. */
export async function benchCharts(stage: PagesStage): Promise<void> {
  const now = Date.now();
  const checkId = randomUUID();
  const first = now - RUNS * RUN_EVERY_MS;
  await Project.updateOne({ _id: stage.projectId }, { $set: { pingLogLimit: 2 * RUNS } });
  await Check.create({ _id: checkId, projectId: stage.projectId, badgeKey: randomUUID(), created: new Date(first - 60_000), name: 'charts bench', status: 'up', nPings: 2 * RUNS, lastPing: new Date(now - RUN_EVERY_MS) });
  const pings = Array.from({ length: RUNS }, (_, i) => runPings(checkId, i, first + i * RUN_EVERY_MS)).flat();
  for (const slice of slicesOf(pings)) await Ping.insertMany(slice, { lean: true });
  await Flip.insertMany(downtimes(checkId, now), { lean: true });
  const checks = await Check.countDocuments({ projectId: stage.projectId });
  stage.out(`charts: a check with ${RUNS.toLocaleString('en')} runs (${pings.length.toLocaleString('en')} pings) and a downtime every 5 days; ${checks.toLocaleString('en')} checks in the project:`);
  stage.out('| page | requests | p50 ms | p95 ms | bytes |\n|---|---|---|---|---|');
  stage.out(timingRow('check page with its charts (100 runs, uptime, 3 months)', await timePage(stage, `/projects/${stage.projectId}/checks/${checkId}/`)));
  stage.out(timingRow('project timeline, last 24 hours (first 200 checks drawn)', await timePage(stage, `/projects/${stage.projectId}/timeline/`)));
}
