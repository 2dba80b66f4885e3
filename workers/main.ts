/**
 * The `worker` process (Procfile): consumes the BullMQ queues and runs the reconciliation sweep; with WORKER_METRICS_PORT set, it serves its metrics
 * there (shared/metrics-listener.ts). SIGTERM/SIGINT close the workers (active jobs finish), the queues, Redis and MongoDB, within 10 s.
 */
import { connectDb, disconnectDb } from '../shared/db.js';
import '../shared/models/index.js';
import { config } from '../shared/config.js';
import { logger } from '../shared/logger.js';
import { systemClock } from '../shared/clock.js';
import { createRedis } from '../shared/queues/connections.js';
import { closeQueues, openQueues, queueList } from '../shared/queues/index.js';
import { onShutdown, waitForRedis } from '../shared/lifecycle.js';
import { startWorkerMetrics } from '../shared/metrics-listener.js';
import { reportRedisOutages } from '../shared/redis-outages.js';
import { startWorkers } from './start.js';

const log = logger.child({ module: 'worker-main' });

async function main(): Promise<void> {
  await connectDb(config.mongodbUri);
  const connection = createRedis(config.redisUrl, 'worker');
  await waitForRedis(connection);
  const queues = openQueues(connection);
  reportRedisOutages(connection, log, queueList(queues));
  const running = await startWorkers({ connection, queues, clock: systemClock, settings: config });
  const metrics = await startWorkerMetrics(connection, config.ops);
  onShutdown(async () => {
    await metrics.close();
    await running.close();
    await closeQueues(queues);
    await connection.quit();
    await disconnectDb();
  }, log);
  // Logged once SIGTERM is handled: a supervisor (or a test) may stop the process as soon as it reads this.
  log.info({ queues: running.workers.map((w) => w.name) }, 'workers started');
}

main().catch((err: unknown) => {
  log.fatal({ err }, 'worker cannot start');
  process.exit(1);
});
