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
 * `GET /ping/<uuid>` cycling over `--checks` established (up) checks, as `npm run bench` does.
 *
 *   npm run bench:embedded -- [--checks N] [--duration S] [--connections N]
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import {
  findPostgres, locateMongod, startEmbeddedMongo, startFerretDB, startPostgresCluster, startRedisServer, type LocalService,
} from '../local-services.js';
import { connectDb, disconnectDb } from '../../shared/db.js';
import '../../shared/models/index.js';
import { createProject } from '../../shared/services/projects.js';
import { createChecks } from './lateness.js';
import { startNode, waitForHttp } from './processes.js';
import { load, type LoadResult } from './throughput.js';

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a whole number above 0');
  return n;
}

const program = new Command('bench:embedded')
  .option('--checks <n>', 'checks the pings cycle over', count, 1000)
  .option('--duration <s>', 'seconds of each ping load', count, 20)
  .option('--connections <n>', 'concurrent connections of each ping load', count, 50);
program.parse();
const opts = program.opts<{ checks: number; duration: number; connections: number }>();

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FERRETDB_BIN = join(ROOT, '.data/bin/ferretdb');
const out = (line = ''): boolean => process.stdout.write(`${line}\n`);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A database to measure: starts it on `port` with its data under `dir`. */
interface Backend {
  name: string;
  start(port: number, dir: string): Promise<LocalService>;
}

const backends: Backend[] = [
  { name: 'FerretDB on SQLite', start: (port, dir) => startFerretDB(port, FERRETDB_BIN, join(dir, 'ferretdb')) },
];
const postgres = findPostgres();
if (postgres) {
  backends.push({
    name: `FerretDB on PostgreSQL ${postgres.version}`,
    start: async (port, dir) => {
      const cluster = await startPostgresCluster(join(dir, 'pg'), postgres);
      const ferretdb = await startFerretDB(port, FERRETDB_BIN, join(dir, 'ferretdb'), cluster.url).catch(async (err: unknown) => {
        await cluster.stop();
        throw err;
      });
      return { name: 'ferretdb', stop: async () => void (await ferretdb.stop(), await cluster.stop()) };
    },
  });
}
if (await locateMongod()) {
  backends.push({
    name: 'mongod (mongodb-memory-server)',
    start: (port, dir) => startEmbeddedMongo(port, { mongoDir: join(dir, 'mongo'), ferretdbBin: FERRETDB_BIN, ferretdbDir: join(dir, 'ferretdb') }),
  });
}

/**
 * Creates `count` established (up, pinged before) checks in a new project, as
 * `npm run bench` does; returns their ping paths (`/ping/<uuid>`).
 */
async function createBenchChecks(mongoUri: string, count: number): Promise<string[]> {
  await connectDb(mongoUri);
  try {
    const { project } = await createProject({ name: 'bench', checkLimit: count });
    return await createChecks(project._id, count, { timeout: 86400, grace: 3600, status: 'up', lastPing: new Date() });
  } finally {
    await disconnectDb();
  }
}

async function measure(backend: Backend): Promise<LoadResult> {
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
    const paths = await createBenchChecks(mongoUri, opts.checks);
    return await load(origin, paths, { connections: opts.connections, durationS: opts.duration });
  } finally {
    for (const service of started) await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

out(`npm start's ping throughput by embedded database: ${opts.checks} established check(s), ${opts.connections} connections, ${opts.duration} s each`);
out('| database | pings/s | p50 ms | p99 ms | requests | errors |\n|---|---|---|---|---|---|');
for (const backend of backends) {
  const r = await measure(backend);
  out(`| ${backend.name} | ${Math.round(r.rps)} | ${r.p50Ms} | ${r.p99Ms} | ${r.requests} | ${r.non2xx + r.errors} |`);
}
