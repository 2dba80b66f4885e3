/**
 * `npm start`: the web, the worker and smtpd in one process, for a single machine.
 *
 * When MONGODB_URI / REDIS_URL name this machine (127.0.0.1, localhost; the
 * defaults do) and nothing listens on their port, it starts what is missing
 * there: an embedded MongoDB (mongodb-memory-server, else the FerretDB binary
 * scripts/provision.sh builds) and a redis-server child with the required
 * settings, data under .data/. If one cannot be had, it prints one line saying
 * what to do and exits 1. SIGTERM/SIGINT close everything, children last, within 10 s.
 */
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
import { UnreachableError } from '../shared/unreachable.js';
import { trackQueueDepths } from '../shared/metrics.js';
import { openPingJournal } from '../shared/pings/replay.js';
import { openJournalConnection } from '../server/ping/journal-connection.js';
import { isListening, startEmbeddedMongo, startRedisServer, type LocalService } from './local-services.js';

const log = logger.child({ module: 'start' });

/** The project's .data/ directory (this file runs as dist/scripts/start.js). */
const DATA_DIR = fileURLToPath(new URL('../../.data/', import.meta.url));

/** What to tell the user for each service that could not be had. */
const MISSING = {
  mongo: { name: 'MongoDB', variable: 'MONGODB_URI', fix: 'install Go and run `bash scripts/provision.sh` (builds FerretDB)' },
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
 * Starts the local services that are needed and not running.
 *
 * @returns The services started here, to stop on exit.
 * @throws MissingServices naming what to set.
 */
async function ensureServices(): Promise<LocalService[]> {
  const wanted: { kind: ServiceKind; url: string; start: () => Promise<LocalService> }[] = [
    {
      kind: 'mongo',
      url: config.mongodbUri,
      start: () => startEmbeddedMongo(portOf(config.mongodbUri, 'mongo'), {
        mongoDir: `${DATA_DIR}mongo`,
        ferretdbBin: `${DATA_DIR}bin/ferretdb`,
        ferretdbDir: `${DATA_DIR}ferretdb`,
      }),
    },
    {
      kind: 'redis',
      url: config.redisUrl,
      start: () => startRedisServer(portOf(config.redisUrl, 'redis'), `${DATA_DIR}redis`),
    },
  ];
  const started: LocalService[] = [];
  const missing: ServiceKind[] = [];
  for (const { kind, url, start } of wanted) {
    if (!isLocal(url) || (await isListening(portOf(url, kind)))) continue;
    try {
      const service = await start();
      started.push(service);
      log.info({ service: service.name, url }, 'started a local service');
    } catch (err) {
      log.debug({ err, kind }, 'cannot start a local service');
      missing.push(kind);
    }
  }
  if (missing.length === 0) return started;
  await Promise.all(started.map((s) => s.stop()));
  const say = (key: 'name' | 'variable' | 'fix') => missing.map((kind) => MISSING[kind][key]).join(' and ');
  throw new MissingServices(`no ${say('name')} available; set ${say('variable')}, or ${say('fix')}`);
}

async function main(): Promise<void> {
  const services = await ensureServices();
  const stopServices = async () => void (await Promise.all(services.map((s) => s.stop())));
  try {
    await connectDb(config.mongodbUri);
    const webRedis = createRedis(config.redisUrl, 'web');
    const workerRedis = createRedis(config.redisUrl, 'worker');
    await Promise.all([waitForRedis(webRedis), waitForRedis(workerRedis)]);
    const webQueues = openQueues(webRedis);
    const workerQueues = openQueues(workerRedis);
    reportRedisOutages(webRedis, log, Object.values(webQueues));
    reportRedisOutages(workerRedis, log, Object.values(workerQueues));
    const depths = trackQueueDepths(webRedis);
    const deps = { connection: workerRedis, queues: workerQueues, clock: systemClock, settings: config };
    const workers = await startWorkers(deps);
    const journalRedis = await openJournalConnection(webRedis);
    const journal = await openPingJournal(journalRedis, { clock: systemClock, queues: webQueues });
    const http = await listen(createWebHandler({ clock: systemClock, redis: webRedis, queues: webQueues, journal }), config.port);
    const smtpd = await startSmtpd({ port: config.smtpPort, host: config.smtpHost, deps: { clock: systemClock, queues: webQueues } });
    log.info({ port: http.port, baseUrl: config.baseUrl, smtpPort: smtpd.port }, 'listening');
    onShutdown(async () => {
      await Promise.all([http.close(), smtpd.close()]);
      await journal.stop();
      await workers.close();
      await Promise.all([closeQueues(webQueues), closeQueues(workerQueues), depths.close()]);
      await Promise.all([webRedis.quit(), journalRedis.quit(), workerRedis.quit()]);
      await disconnectDb();
      await stopServices();
    }, log);
  } catch (err) {
    await stopServices();
    throw err;
  }
}

main().catch((err: unknown) => {
  // A missing or unreachable service is the user's to fix: one plain line, not a stack trace.
  if (err instanceof MissingServices || err instanceof UnreachableError) process.stderr.write(`npm start: ${err.message}\n`);
  else log.fatal({ err }, 'cannot start');
  process.exit(1);
});
