/**
 * `npm start`: the web, the worker and smtpd in one process, for a single machine.
 *
 * When MONGODB_URI / REDIS_URL name this machine (127.0.0.1, localhost; the
 * defaults do) and nothing listens on their port, it starts what is missing
 * there, data under .data/: an embedded MongoDB (mongod through
 * mongodb-memory-server when it has one, else FerretDB 2 on DocumentDB in a
 * private PostgreSQL cluster, both built by scripts/provision.sh) and a
 * redis-server child with the required settings. It says in one line which database it uses (`database: …`). If a
 * service cannot be had, it prints one line saying what to do and exits 1.
 * SIGTERM/SIGINT close everything, children last, within 10 s.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWebHandler } from '../server/app.js';
import { listen } from '../server/http.js';
import { startWorkers } from '../workers/start.js';
import { startSmtpd } from '../server/smtpd/listener.js';
import { connectDb, disconnectDb } from '../shared/db.js';
import '../shared/models/index.js';
import { config } from '../shared/config.js';
import { logger } from '../shared/logger.js';
import { systemClock } from '../shared/clock.js';
import { createRedis } from '../shared/queues/connections.js';
import { closeQueues, openQueues } from '../shared/queues/index.js';
import { onShutdown, waitForRedis } from '../shared/lifecycle.js';
import { reportRedisOutages } from '../shared/redis-outages.js';
import { describeMongoUri, UnreachableError } from '../shared/unreachable.js';
import { trackQueueDepths } from '../shared/metrics.js';
import { openPingJournal } from '../shared/pings/replay.js';
import { openJournalConnection } from '../server/ping/journal-connection.js';
import { startEmbeddedMongo, type EmbeddedMongo } from './embedded-mongo.js';
import { displayPath, isListening, startRedisServer, type LocalService } from './local-services.js';

const log = logger.child({ module: 'start' });

/** The project's .data/ directory (this file runs as dist/scripts/start.js): the FerretDB binary scripts/provision.sh builds. */
const PROJECT_DATA_DIR = fileURLToPath(new URL('../../.data/', import.meta.url));
/** Where the servers started here keep their data: LOCAL_DATA_DIR (the tests' own directories), else .data/. */
const DATA_DIR = process.env.LOCAL_DATA_DIR ? `${resolve(process.env.LOCAL_DATA_DIR)}/` : PROJECT_DATA_DIR;

/** What to tell the user for each service that could not be had. */
const MISSING = {
  mongo: { name: 'MongoDB', variable: 'MONGODB_URI', fix: 'install Go and PostgreSQL 15 and run `bash scripts/provision.sh` (builds FerretDB 2 and DocumentDB)' },
  redis: { name: 'Redis', variable: 'REDIS_URL', fix: 'run `sudo apt-get install -y redis-server`' },
} as const;

type ServiceKind = keyof typeof MISSING;

/** Raised when a service is neither configured, running, nor startable; its message is the one line to print. */
class MissingServices extends Error {}

/** Default ports of URLs that name none. */
const DEFAULT_PORTS = { mongo: 27017, redis: 6379 } as const;

/** Hosts that are this machine. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function portOf(url: string, kind: ServiceKind): number {
  return Number(new URL(url).port || DEFAULT_PORTS[kind]);
}

/** Whether `url` names a server on this machine that `npm start` may start itself (no credentials to honour). */
function isLocal(url: string): boolean {
  const { hostname, username, password } = new URL(url);
  return LOOPBACK_HOSTS.has(hostname) && !username && !password;
}

/**
 * The one line that says which database this process uses.
 *
 * @param started - The embedded server started for it, if one was.
 * @returns For example `database: FerretDB 2.7.0 on DocumentDB, PostgreSQL 15.20 (no mongod could be had) at 127.0.0.1:27017/hc, data in .data/documentdb`.
 */
function databaseLine(started: EmbeddedMongo | undefined): string {
  const where = describeMongoUri(config.mongodbUri);
  if (started) {
    const link = started.dataLink ? ` (a symlink to ${started.dataLink})` : '';
    // FerretDB 1, the embedded server before, kept its data there; FerretDB 2 cannot read it (docs/operations.md).
    const earlier = existsSync(`${DATA_DIR}pg`) ? `; ${displayPath(`${DATA_DIR}pg`)} holds data of the earlier embedded server, not read` : '';
    return `database: ${started.server} at ${where}, data in ${displayPath(started.dataDir)}${link}${earlier}`;
  }
  const source = config.mongodbUriGiven ? 'from MONGODB_URI' : 'MONGODB_URI is unset: the default';
  const running = isLocal(config.mongodbUri) ? ', already listening' : '';
  return `database: ${where} (${source})${running}; not started here`;
}

/**
 * Starts the local services that are needed and not running, and says which database is used.
 *
 * @returns The services started here, to stop on exit.
 * @throws MissingServices naming what to set.
 */
async function ensureServices(): Promise<LocalService[]> {
  const mongoPort = portOf(config.mongodbUri, 'mongo');
  let embedded: EmbeddedMongo | undefined;
  const wanted: { kind: ServiceKind; url: string; start: () => Promise<LocalService> }[] = [
    {
      kind: 'mongo',
      url: config.mongodbUri,
      start: async () => (embedded = await startEmbeddedMongo(mongoPort, {
        mongoDir: `${DATA_DIR}mongo`,
        ferretdbBin: `${PROJECT_DATA_DIR}bin/ferretdb`,
        ferretdbDir: `${DATA_DIR}ferretdb2`,
        postgresDir: `${DATA_DIR}documentdb`,
      })),
    },
    {
      kind: 'redis',
      url: config.redisUrl,
      start: () => startRedisServer(portOf(config.redisUrl, 'redis'), `${DATA_DIR}redis`),
    },
  ];
  const started: LocalService[] = [];
  const missing: { kind: ServiceKind; reason: string }[] = [];
  for (const { kind, url, start } of wanted) {
    if (!isLocal(url) || (await isListening(portOf(url, kind)))) continue;
    try {
      const service = await start();
      started.push(service);
      log.info({ service: service.name, url }, 'started a local service');
    } catch (err) {
      log.debug({ err, kind }, 'cannot start a local service');
      missing.push({ kind, reason: err instanceof Error ? err.message.split('\n')[0] : String(err) });
    }
  }
  if (missing.length === 0) {
    log.info({ service: embedded?.name }, databaseLine(embedded));
    return started;
  }
  await Promise.all(started.map((s) => s.stop()));
  const say = (key: 'name' | 'variable' | 'fix') => missing.map(({ kind }) => MISSING[kind][key]).join(' and ');
  const reasons = missing.map(({ reason }) => reason).join('; ');
  throw new MissingServices(`no ${say('name')} available (${reasons}); set ${say('variable')}, or ${say('fix')}`);
}

/**
 * Starts everything in order; each step registers how to undo it, so a failure part-way (a busy port)
 * and a shutdown both close what was opened, newest first.
 */
async function main(): Promise<void> {
  if (await isListening(config.port)) throw new MissingServices(`port ${config.port} is in use; set PORT to a free one`);
  const opened: (() => Promise<unknown>)[] = [];
  const closeAll = async () => {
    for (const close of opened.reverse()) await close();
  };
  try {
    const services = await ensureServices();
    opened.push(() => Promise.all(services.map((s) => s.stop())));
    await connectDb(config.mongodbUri);
    opened.push(disconnectDb);
    const webRedis = createRedis(config.redisUrl, 'web');
    const workerRedis = createRedis(config.redisUrl, 'worker');
    opened.push(() => Promise.all([webRedis.quit(), workerRedis.quit()]));
    await Promise.all([waitForRedis(webRedis), waitForRedis(workerRedis)]);
    const webQueues = openQueues(webRedis);
    const workerQueues = openQueues(workerRedis);
    opened.push(() => Promise.all([closeQueues(webQueues), closeQueues(workerQueues)]));
    reportRedisOutages(webRedis, log, Object.values(webQueues));
    reportRedisOutages(workerRedis, log, Object.values(workerQueues));
    const depths = trackQueueDepths(webRedis);
    opened.push(() => depths.close());
    const workers = await startWorkers({ connection: workerRedis, queues: workerQueues, clock: systemClock, settings: config });
    opened.push(() => workers.close());
    const journalRedis = await openJournalConnection(webRedis);
    opened.push(() => journalRedis.quit());
    const journal = await openPingJournal(journalRedis, { clock: systemClock, queues: webQueues });
    opened.push(() => journal.stop());
    const http = await listen(createWebHandler({ clock: systemClock, redis: webRedis, queues: webQueues, journal }), config.port);
    opened.push(() => http.close());
    const smtpd = await startSmtpd({ port: config.smtpPort, host: config.smtpHost, deps: { clock: systemClock, queues: webQueues } });
    opened.push(() => smtpd.close());
    log.info({ port: http.port, baseUrl: config.baseUrl, smtpPort: smtpd.port }, 'listening');
    onShutdown(closeAll, log);
  } catch (err) {
    await closeAll();
    throw err;
  }
}

main().catch((err: unknown) => {
  // A missing or unreachable service is the user's to fix: one plain line, not a stack trace.
  if (err instanceof MissingServices || err instanceof UnreachableError) process.stderr.write(`npm start: ${err.message}\n`);
  else log.fatal({ err }, 'cannot start');
  process.exit(1);
});
