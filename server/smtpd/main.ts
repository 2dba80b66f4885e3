/**
 * The smtpd process (Procfile `smtpd: node dist/server/smtpd/main.js`):
 * receives email pings on SMTP_HOST:SMTP_PORT for PING_EMAIL_DOMAIN
 * (behaviour.md §5). Shuts down on SIGTERM/SIGINT within 10 s.
 */
import { config } from '../../shared/config.js';
import { connectDb, disconnectDb } from '../../shared/db.js';
import '../../shared/models/index.js';
import { createRedis } from '../../shared/queues/connections.js';
import { closeQueues, openQueues } from '../../shared/queues/index.js';
import { systemClock } from '../../shared/clock.js';
import { logger } from '../../shared/logger.js';
import { startSmtpd } from './listener.js';

const log = logger.child({ module: 'smtpd' });

/** Hard stop after SIGTERM, in milliseconds, should a step hang (Heroku kills at 30 s). */
const SHUTDOWN_LIMIT_MS = 10_000;

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

async function shutdown(signal: string): Promise<void> {
  log.info({ signal }, 'closing');
  setTimeout(() => {
    log.error('shutdown took too long; exiting');
    process.exit(1);
  }, SHUTDOWN_LIMIT_MS).unref();
  await smtpd.close();
  await closeQueues(queues);
  redis.disconnect();
  await disconnectDb();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
