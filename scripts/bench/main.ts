/**
 * `npm run bench`: the schedule engines' cost per call (cron and OnCalendar, no service needed), ping throughput against the bare-http ceiling (as
 * configured, and with every ping answered once journaled in Redis, with the
 * time MongoDB then needs to catch up), deadline
 * lateness and alert latency (a thousand checks at once, and one alone), and
 * the cost of scale (Redis bytes per check, a sweep pass, ping latency with
 * 100,000 active checks), and the end of a maintenance window holding 10,000
 * down checks (their alerts measured from the window's end), on this machine, with the service's real web and
 * worker processes; and the scaling and recovery figures: throughput with one and with two web
 * processes, recovery times after a worker kill and a Redis flush (on a redis-server
 * of the phase's own), and the drain after a burst with the database paused (a
 * FerretDB of the phase's own), all with the shipped intervals; and the web pages' server time and sizes (the
 * `pages` phase, pages.ts: a web process of its own, no worker); and a public status page's throughput, its first render after a flip and how
 * soon a flip shows on it (the `status-page` phase, status-page.ts: a web process of its own, no worker); and the import of a Healthchecks dump
 * of 10,000 checks × 100 pings (the `import` phase, import.ts: no process of its own). The options are in options.ts.
 *
 * Uses MONGODB_URI / REDIS_URL (or the local defaults; `npm run services`
 * starts them) with a database and a queue prefix of its own (`hc_bench_<pid>`),
 * both removed at the end; nothing else in either server is touched. Pings may
 * wait up to 60 s for the database (PING_TIMEOUT_MS), so that an overloaded
 * database shows as latency in the figures instead of ending a phase with 503s.
 *
 * The web processes and the bare node:http server run pinned to one CPU
 * (`--web-cpu`, by default the last one when `taskset` exists and there are
 * several), so that their figures are those of one core, beside the load
 * generator, the worker and the databases.
 *
 * With `--reference-url` (a Healthchecks already running on 127.0.0.1, with a project API key in
 * `--reference-key`), the throughput phase puts the same load on the reference too,
 * over as many checks made through its API, and counts what it stored the same way.
 */
import mongoose from 'mongoose';
import { Redis } from 'ioredis';
import { config } from '../../shared/config.js';
import { connectDb, disconnectDb } from '../../shared/db.js';
import '../../shared/models/index.js';
import { createProject } from '../../shared/services/projects.js';
import { databaseUri, idsOf, nPingsOf, out, removeKeys } from './common.js';
import { createChecks } from './lateness.js';
import { parseOptions, type Phase } from './options.js';
import { startNode, startWeb, type Child } from './processes.js';
import { reportDrain, reportLatency, reportRecovery, reportScale, reportScaleOut, reportWindowEnd, type BenchStage } from './reports.js';
import type { LoadResult } from './throughput.js';
import { reportThroughput } from './throughput-report.js';
import { reportSchedules } from './schedules.js';
import { reportPages } from './pages.js';
import { reportStatusPage } from './status-page.js';
import { reportIndexCost, reportSustained } from './writes.js';
import { reportImport } from './import.js';

const RUN = `hc_bench_${process.pid}`;
const { opts, reference } = parseOptions();
const runs = (phase: Phase): boolean => opts.phases.includes(phase);

async function main(): Promise<void> {
  // Pure CPU, first and without the services: the schedule engines' cost per call.
  if (runs('schedules')) reportSchedules(out);
  if (opts.phases.every((phase) => phase === 'schedules')) return;
  const mongoUri = databaseUri(config.mongodbUri, RUN);
  await connectDb(mongoUri);
  const redis = new Redis(config.redisUrl);
  const env = {
    MONGODB_URI: mongoUri, REDIS_URL: config.redisUrl, QUEUE_PREFIX: RUN, NODE_ENV: 'test',
    TEST_MIN_PERIOD_SECONDS: '1', LOG_LEVEL: 'warn', INTEGRATIONS_ALLOW_PRIVATE_IPS: 'true', PING_TIMEOUT_MS: '60000',
  };
  const children: Child[] = [];
  try {
    // The web pages, on a web process of their own, before (and without) the shared web and worker processes.
    if (runs('pages')) await reportPages(env, opts, out);
    if (runs('status-page')) await reportStatusPage(env, opts, out);
    if (runs('import')) await reportImport(redis, RUN, opts.importChecks, opts.importPings, out);
    if (opts.phases.every((phase) => phase === 'schedules' || phase === 'pages' || phase === 'status-page' || phase === 'import')) return;
    const web = await startWeb(env, opts.webCpu);
    children.push(web.child);
    // A second web process answers every ping as soon as it is journaled (PING_ACK_MS=0): the journal's capacity.
    const journalWeb = await startWeb({ ...env, PING_ACK_MS: '0' }, opts.webCpu);
    children.push(journalWeb.child);
    children.push(startNode('dist/workers/main.js', { ...env, BASE_URL: web.origin }));
    const { project, apiKey } = await createProject({ name: 'bench', checkLimit: (10 + opts.massTrials) * opts.checks + opts.scale + opts.windowChecks });
    // Established checks (up, pinged before), as a deployment's pings mostly hit: a first ping also records a flip.
    const paths = await createChecks(project._id, opts.checks, { timeout: 86400, grace: 3600, status: 'up', lastPing: new Date() });
    const ids = idsOf(paths);
    const stage: BenchStage = { origin: web.origin, apiKey, projectId: project._id, redis, prefix: RUN, opts };

    const [, hz] = (await redis.config('GET', 'hz'));
    out(`Redis hz: ${hz}${Number(hz) >= 100 ? '' : ' (below the required 100: deadlines fire up to 1000/hz ms late, see docs/configuration.md, "Redis settings")'}\n`);
    let service: LoadResult | undefined;
    if (runs('throughput')) service = await reportThroughput({ web, journalWeb, paths, ids, reference }, opts, out);
    const shape = { connections: opts.connections, durationS: opts.duration };
    if (runs('scaleout')) await reportScaleOut({ env, paths, nPings: () => nPingsOf(ids), shape }, out);
    await reportLatency(stage, out);
    if (runs('recovery')) await reportRecovery(config.mongodbUri, `${RUN}_recovery`, opts.recoveryChecks, out);
    if (runs('drain')) await reportDrain(config.redisUrl, redis, `${RUN}_drain`, out);
    if (runs('scale')) await reportScale(stage, service, out);
    if (runs('window')) await reportWindowEnd(stage, out);
    if (runs('writes')) {
      await reportIndexCost(out);
      await reportSustained(redis, RUN, ids, Math.max(120, opts.sustainedSeconds), out);
    }
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await mongoose.connection.dropDatabase();
    await disconnectDb();
    await removeKeys(redis, RUN);
    redis.disconnect();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
