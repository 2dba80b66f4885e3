/** The smtpd process (Procfile `smtpd`): email pings on SMTP_HOST:SMTP_PORT for PING_EMAIL_DOMAIN (docs/email-pings.md). */
import { config } from '../../shared/config.js';
import { connectDb, disconnectDb } from '../../shared/db.js';
import '../../shared/models/index.js';
import { createRedis } from '../../shared/queues/connections.js';
import { closeQueues, openQueues, queueList } from '../../shared/queues/index.js';
import { systemClock } from '../../shared/clock.js';
import { logger } from '../../shared/logger.js';
import { onShutdown } from '../../shared/lifecycle.js';
import { reportRedisOutages } from '../../shared/redis-outages.js';
import { startSmtpd } from './listener.js';

const log = logger.child({ module: 'smtpd' });

async function main(): Promise<void> {
  await connectDb(config.mongodbUri);
  // Starts without Redis, as the web process: an outage must not hold SMTP sessions open, and the worker's sweep
  // catches up on deadlines and flips that could not be queued.
  const redis = createRedis(config.redisUrl, 'web');
  const queues = openQueues(redis);
  reportRedisOutages(redis, log, queueList(queues));
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
}

main().catch((err: unknown) => {
  log.fatal({ err }, 'smtpd cannot start');
  process.exit(1);
});
