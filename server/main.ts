/**
 * The `web` process (Procfile): Management API, Pinging API and badges on
 * `PORT`, plus the operator endpoints (metrics, queue dashboard). Pings are
 * journaled in Redis (shared/pings/journal.ts, on a connection of its own:
 * server/ping/journal-connection.ts); entries whose
 * application to MongoDB failed are replayed on each lease renewal. SIGTERM/SIGINT
 * stop accepting, let requests in flight finish, then close the queues, Redis
 * and MongoDB, within 10 s. MongoDB or Redis not reachable at start is one
 * fatal log line; a later Redis outage one line each way.
 */
import { createWebHandler } from './app.js';
import { listen } from './http.js';
import { connectDb, disconnectDb } from '../shared/db.js';
import '../shared/models/index.js';
import { config } from '../shared/config.js';
import { proxyWarnings } from '../shared/config-proxy.js';
import { logger } from '../shared/logger.js';
import { systemClock } from '../shared/clock.js';
import { createRedis } from '../shared/queues/connections.js';
import { closeQueues, openQueues, queueList } from '../shared/queues/index.js';
import { onShutdown, waitForRedis } from '../shared/lifecycle.js';
import { reportRedisOutages } from '../shared/redis-outages.js';
import { trackQueueDepths } from '../shared/metrics.js';
import { openPingJournal } from '../shared/pings/replay.js';
import { openJournalConnection } from './ping/journal-connection.js';

const log = logger.child({ module: 'web-main' });

async function main(): Promise<void> {
  await connectDb(config.mongodbUri);
  const redis = createRedis(config.redisUrl, 'web');
  await waitForRedis(redis);
  const queues = openQueues(redis);
  reportRedisOutages(redis, log, queueList(queues));
  const depths = trackQueueDepths(redis);
  const journalRedis = await openJournalConnection(redis);
  const journal = await openPingJournal(journalRedis, { clock: systemClock, queues });
  const http = await listen(createWebHandler({ clock: systemClock, redis, queues, journal }), config.port);
  log.info({ port: http.port }, 'listening');
  // This process speaks plain HTTP: an https BASE_URL means a proxy, whose X-Forwarded-Proto the Secure cookie needs.
  for (const warning of proxyWarnings(config, config.sso.remoteUserHeader, config.baseUrl)) log.warn(warning);
  onShutdown(async () => {
    await http.close();
    await journal.stop();
    await Promise.all([closeQueues(queues), depths.close()]);
    await Promise.all([redis.quit(), journalRedis.quit()]);
    await disconnectDb();
  }, log);
}

main().catch((err: unknown) => {
  log.fatal({ err }, 'web cannot start');
  process.exit(1);
});
