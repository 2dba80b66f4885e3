/**
 * The smtpd process (Procfile `smtpd: node dist/server/smtpd/main.js`):
 * receives email pings on SMTP_HOST:SMTP_PORT for PING_EMAIL_DOMAIN
 * (behaviour.md §5). Shuts down on SIGTERM/SIGINT within 10 s (shared/lifecycle.ts).
 */
import { config } from '../../shared/config.js';
import { connectDb, disconnectDb } from '../../shared/db.js';
import '../../shared/models/index.js';
import { createRedis } from '../../shared/queues/connections.js';
import { closeQueues, openQueues } from '../../shared/queues/index.js';
import { systemClock } from '../../shared/clock.js';
import { logger } from '../../shared/logger.js';
import { onShutdown } from '../../shared/lifecycle.js';
import { startSmtpd } from './listener.js';

const log = logger.child({ module: 'smtpd' });

await connectDb(config.mongodbUri);
// Like the web process: a Redis outage must not hold SMTP sessions open; the
// worker's sweep catches up on deadlines and flips that could not be queued.
const redis = createRedis(config.redisUrl, 'web');
redis.on('error', (err: Error) => log.warn({ err }, 'redis error'));
const queues = openQueues(redis);
const smtpd = await startSmtpd({
  port: config.smtpPort,
  host: config.smtpHost,
  deps: { clock: systemClock, queues },
});

onShutdown(async () => {
  await smtpd.close();
  await closeQueues(queues);
  redis.disconnect();
  await disconnectDb();
}, log);
