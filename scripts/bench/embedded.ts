/**
 * `npm run bench:embedded`: ping throughput of `npm start` (dist/scripts/start.js,
 * web + worker + smtpd in one process) on each embedded database it can choose,
 * side by side: FerretDB on SQLite (the default before PostgreSQL), FerretDB on
 * a private PostgreSQL cluster (the default when no mongod can be had), and
 * mongod (mongodb-memory-server) when its binary is at hand here.
 *
 * Each run has its own servers on free ports, with their data in a temporary
 * directory removed at the end: nothing of `npm start`'s own .data/ nor of a
 * running service is touched. The load is autocannon's (scripts/bench/throughput.ts),
 * `GET /ping/<uuid>` cycling over `--checks` established (up) checks, as `npm run bench` does,
 * each with `--history` pings stored before (its ping log full, as in a deployment that has
 * run a while).
 *
 *   npm run bench:embedded -- [--checks N] [--history N] [--duration S] [--connections N]
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { DOCUMENTDB_PG_MAJOR, locateMongod, startDocumentDB, startEmbeddedMongo } from '../embedded-mongo.js';
import { findPostgres } from '../local-postgres.js';
import { freePort, startRedisServer, type LocalService } from '../local-services.js';
import { connectDb, disconnectDb } from '../../shared/db.js';
import '../../shared/models/index.js';
import { Check } from '../../shared/models/check.js';
import { Ping } from '../../shared/models/ping.js';
import { PRUNE_EVERY } from '../../shared/pings/record.js';
import { createProject } from '../../shared/services/projects.js';
import { count, idsOf, nPingsOf, out, PER_ROUND_TRIP, slicesOf, waitUntil, whole } from './common.js';
import { createChecks } from './lateness.js';
import { startNode, waitForHttp } from './processes.js';
import { load, type LoadResult } from './throughput.js';

const program = new Command('bench:embedded')
  .option('--checks <n>', 'checks the pings cycle over', count, 1000)
  .option('--history <n>', 'pings stored per check before the load (100: the default ping log, as after a while)', whole, 100)
  .option('--duration <s>', 'seconds of each ping load', count, 20)
  .option('--connections <n>', 'concurrent connections of each ping load', count, 50);
program.parse();
const opts = program.opts<{ checks: number; history: number; duration: number; connections: number }>();

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FERRETDB_BIN = join(ROOT, '.data/bin/ferretdb');

/** A database to measure: starts it on `port` with its data under `dir`. */
interface Backend {
  name: string;
  start(port: number, dir: string): Promise<LocalService>;
}

const backends: Backend[] = [];
if (findPostgres(DOCUMENTDB_PG_MAJOR)) {
  backends.push({
    name: 'FerretDB 2 on DocumentDB',
    start: (port, dir) => startDocumentDB(port, { ferretdbBin: FERRETDB_BIN, ferretdbDir: join(dir, 'ferretdb'), postgresDir: join(dir, 'pg') }),
  });
}
if (await locateMongod()) {
  backends.push({
    name: 'mongod (mongodb-memory-server)',
    start: (port, dir) => startEmbeddedMongo(port, { mongoDir: join(dir, 'mongo'), ferretdbBin: FERRETDB_BIN, ferretdbDir: join(dir, 'ferretdb'), postgresDir: join(dir, 'pg') }),
  });
}

/**
 * Creates `count` established (up) checks in a new project, as `npm run bench`
 * does, each with its ping log full: `history` pings stored before (100 is the
 * default log a check keeps), numbered on from a different place for each check,
 * so that pings cross the every-100th prune (shared/pings/record.ts) at the
 * rate they do in a deployment that has run a while. Returns their ping paths.
 */
async function createBenchChecks(count: number, history: number): Promise<string[]> {
  const { project } = await createProject({ name: 'bench', checkLimit: count });
  const now = Date.now();
  const paths = await createChecks(project._id, count, { timeout: 86400, grace: 3600, status: 'up', lastPing: new Date(now) });
  const ids = idsOf(paths);
  const offset = (i: number) => i % PRUNE_EVERY;
  for (let i = 0; i < ids.length; i += PER_ROUND_TRIP) {
    await Check.bulkWrite(ids.slice(i, i + PER_ROUND_TRIP).map((_id, j) => ({ updateOne: { filter: { _id }, update: { $set: { nPings: offset(i + j) + history } } } })));
  }
  const pings = ids.flatMap((checkId, c) => Array.from({ length: history }, (_, i) => ({
    checkId, n: offset(c) + i + 1, created: new Date(now - (history - i) * 60_000), kind: 'success',
    scheme: 'http', remoteAddr: '127.0.0.1', method: 'GET', ua: 'bench', body: null, exitStatus: null, rid: null,
  })));
  for (const slice of slicesOf(pings)) await Ping.collection.insertMany(slice, { ordered: false });
  return paths;
}

/** One run's figures. */
interface Figures {
  load: LoadResult;
  /** Pings stored during the load, per second. */
  storedPerS: number;
  /** Seconds after the load until every ping answered 200 was stored; undefined when not within 300 s. */
  caughtUpS: number | undefined;
}

async function measure(backend: Backend): Promise<Figures> {
  // World-searchable, so PostgreSQL, which runs as the postgres user when this runs as root, reaches its cluster in it.
  const dir = mkdtempSync(join(tmpdir(), 'hc-bench-embedded-'));
  chmodSync(dir, 0o755);
  const [mongoPort, redisPort, port, smtpPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const started: LocalService[] = [];
  try {
    started.push(await backend.start(mongoPort, dir));
    started.push(await startRedisServer(redisPort, join(dir, 'redis')));
    const mongoUri = `mongodb://127.0.0.1:${mongoPort}/hc`;
    const origin = `http://127.0.0.1:${port}`;
    const app = startNode(join(ROOT, 'dist/scripts/start.js'), {
      MONGODB_URI: mongoUri, REDIS_URL: `redis://127.0.0.1:${redisPort}`, PORT: String(port), SMTP_PORT: String(smtpPort),
      SMTP_HOST: '127.0.0.1', BASE_URL: origin, LOG_LEVEL: 'warn',
    });
    started.unshift({ name: 'npm start', stop: () => app.stop() });
    await waitForHttp(`${origin}/api/v3/status/`, 60_000);
    await connectDb(mongoUri);
    started.unshift({ name: 'bench connection', stop: disconnectDb });
    const paths = await createBenchChecks(opts.checks, opts.history);
    const ids = idsOf(paths);
    const before = await nPingsOf(ids);
    const result = await load(origin, paths, { connections: opts.connections, durationS: opts.duration });
    const loadEnded = Date.now();
    const storedPerS = ((await nPingsOf(ids)) - before) / opts.duration;
    const caughtUp = await waitUntil(async () => (await nPingsOf(ids)) - before >= result.ok, loadEnded + 300_000 - Date.now());
    const caughtUpS = caughtUp ? (Date.now() - loadEnded) / 1000 : undefined;
    return { load: result, storedPerS, caughtUpS };
  } finally {
    for (const service of started) await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

out(`npm start's ping throughput by embedded database: ${opts.checks} established check(s), their ping logs full (${opts.history} pings each), ${opts.connections} connections, ${opts.duration} s each`);
out('(A ping is answered once stored, or from the Redis journal when the database falls behind: PING_ACK_MS, PING_ACK_BACKLOG.)');
out('| database | pings/s answered | stored/s during the load | all stored after | p50 ms | p99 ms | errors |\n|---|---|---|---|---|---|---|');
for (const backend of backends) {
  const { load: r, storedPerS, caughtUpS } = await measure(backend);
  const caughtUp = caughtUpS === undefined ? 'not within 300 s' : `+${caughtUpS.toFixed(1)} s`;
  out(`| ${backend.name} | ${Math.round(r.rps)} | ${Math.round(storedPerS)} | ${caughtUp} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx + r.errors} |`);
}
