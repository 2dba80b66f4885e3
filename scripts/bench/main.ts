/**
 * `npm run bench`: ping throughput against the bare-http ceiling, deadline
 * lateness and alert latency, on this machine, with the service's real web and
 * worker processes.
 * Uses MONGODB_URI / REDIS_URL (or the local defaults; `npm run services`
 * starts them) with a dedicated database `hc_bench` and Redis database 8.
 */
import mongoose from 'mongoose';
import { Redis } from 'ioredis';
import { config } from '../../shared/config.js';
import { connectDb, createIndexes, disconnectDb } from '../../shared/db.js';
import '../../shared/models/index.js';
import { createProject } from '../../shared/services/projects.js';
import { startNode, waitForHttp, type Child } from './processes.js';
import { load, startCeilingServer, type LoadResult } from './throughput.js';
import { createChecks, measureLateness } from './lateness.js';
import { measureAlertLatency } from './alerts.js';
import type { Summary } from './stats.js';

const CHECKS = 1000;
const LOAD = { connections: 50, durationS: 20 };
const PORT = 8765;

function withPath(uri: string, path: string): string {
  const url = new URL(uri);
  url.pathname = path;
  return url.toString();
}

function row(name: string, r: LoadResult): string {
  return `| ${name} | ${Math.round(r.rps)} | ${r.p50Ms} | ${r.p99Ms} | ${r.requests} | ${r.non2xx + r.errors} |`;
}

function summaryRow(name: string, s: Summary): string {
  return `| ${name} | ${s.count} | ${s.p50} | ${s.p99} | ${s.max} |`;
}

async function main(): Promise<void> {
  const mongoUri = withPath(config.mongodbUri, '/hc_bench');
  const redisUrl = withPath(config.redisUrl, '/8');
  await connectDb(mongoUri);
  await mongoose.connection.dropDatabase();
  await createIndexes();
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  redis.disconnect();

  const env = { MONGODB_URI: mongoUri, REDIS_URL: redisUrl, PORT: String(PORT), NODE_ENV: 'test', TEST_MIN_PERIOD_SECONDS: '1', LOG_LEVEL: 'warn', INTEGRATIONS_ALLOW_PRIVATE_IPS: 'true', BASE_URL: `http://127.0.0.1:${PORT}` };
  const children: Child[] = [startNode('dist/server/main.js', env), startNode('dist/workers/main.js', env)];
  const origin = `http://127.0.0.1:${PORT}`;
  try {
    await waitForHttp(`${origin}/api/v3/status/`, 30_000);
    const { apiKey, project } = await createProject({ name: 'bench', checkLimit: 10 * CHECKS });
    const paths = await createChecks(origin, apiKey, CHECKS, { timeout: 86400, grace: 3600 });

    process.stdout.write(`ping throughput: ${CHECKS} checks, ${LOAD.connections} connections, ${LOAD.durationS} s each\n`);
    const service = await load(origin, paths, LOAD);
    const ceiling = await startCeilingServer();
    const bare = await load(ceiling.origin, paths, LOAD);
    ceiling.server.close();
    process.stdout.write(['| target | pings/s | p50 ms | p99 ms | requests | errors |', '|---|---|---|---|---|---|', row('ping handler', service), row('bare node:http', bare), ''].join('\n'));
    process.stdout.write(`ratio service/ceiling: ${(service.rps / bare.rps).toFixed(3)}\n\n`);

    const lateness = await measureLateness(origin, apiKey, CHECKS);
    process.stdout.write('deadline lateness and alert latency, milliseconds after each check\'s computed down moment:\n');
    process.stdout.write(['| measure | checks | p50 | p99 | max |', '|---|---|---|---|---|', summaryRow('flip recorded', lateness), ''].join('\n'));
    const alerts = await measureAlertLatency(origin, apiKey, project._id, CHECKS);
    process.stdout.write(`${summaryRow('webhook alert received', alerts)}\n`);
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await disconnectDb();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
