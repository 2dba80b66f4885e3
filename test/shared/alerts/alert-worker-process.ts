/**
 * A separate worker process for the crash test: runs the notify worker until
 * the test kills it. Arguments: MongoDB URI, Redis URL, the
 * notify settings as JSON. Prints `ready` once the workers run.
 */
import { systemClock } from '../../../shared/clock.js';
import type { NotifyConfig } from '../../../shared/config.js';
import { connectDb } from '../../../shared/db.js';
import '../../../shared/models/index.js';
import { createRedis } from '../../../shared/queues/connections.js';
import { openQueues } from '../../../shared/queues/index.js';
import type { WorkerDeps } from '../../../shared/queues/deps.js';
import { notifyWorker } from '../../../shared/alerts/notify.js';
import { TEST_WORKER_OPTIONS } from '../../helpers/alerts.js';

const [mongoUri, redisUrl, settings] = process.argv.slice(2);
if (!mongoUri || !redisUrl || !settings) throw new Error('usage: alert-worker-process MONGODB_URI REDIS_URL NOTIFY_JSON');
await connectDb(mongoUri);
const connection = createRedis(redisUrl, 'worker');
const deps: WorkerDeps = {
  connection,
  queues: openQueues(connection),
  clock: systemClock,
  settings: { deadlineConcurrency: 1, sweepIntervalMs: 60_000 },
  notify: JSON.parse(settings) as NotifyConfig,
};
const workers = [notifyWorker(deps, TEST_WORKER_OPTIONS)];
await Promise.all(workers.map((worker) => worker.waitUntilReady()));
process.stdout.write('ready\n');
