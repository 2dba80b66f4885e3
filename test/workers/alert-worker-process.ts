/**
 * A separate worker process for the crash tests: runs the alert workers until
 * the test kills it. Arguments: MongoDB URI, Redis URL, the notify settings as JSON.
 * Prints `ready` once the workers run.
 */
import { connectDb } from '../../shared/db.js';
import '../../shared/models/index.js';
import type { NotifyConfig } from '../../shared/config.js';
import { createRedis } from '../../shared/queues/connections.js';
import { notifyWorkers } from '../../workers/notify.js';

const [mongoUri, redisUrl, settings] = process.argv.slice(2);
if (!mongoUri || !redisUrl || !settings) throw new Error('usage: alert-worker-process MONGODB_URI REDIS_URL NOTIFY_JSON');
await connectDb(mongoUri);
const connection = createRedis(redisUrl, 'worker');
const running = notifyWorkers(connection, {
  clock: () => new Date(),
  config: JSON.parse(settings) as NotifyConfig,
  worker: { lockDuration: 1000, stalledInterval: 250, drainDelay: 1 },
});
await Promise.all(running.workers.map((worker) => worker.waitUntilReady()));
process.stdout.write('ready\n');
