/**
 * The MongoDB-compatible server and Redis the tests talk to: MONGODB_URI /
 * REDIS_URL when set (CI starts FerretDB and Redis with `npm run services`),
 * otherwise mongodb-memory-server and a redis-server started here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

/** Database used by tests inside the given server; one per run so parallel runs do not collide. */
export const TEST_DB = `hc_test_${process.pid}`;
/** Redis logical database used by tests. */
export const TEST_REDIS_DB = 9;

/** Running test services and how to stop the ones started here. */
export interface TestServices {
  mongoUri: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

function withDatabase(uri: string, db: string): string {
  const url = new URL(uri);
  url.pathname = `/${db}`;
  return url.toString();
}

async function startMongo(): Promise<{ uri: string; stop: () => Promise<void> }> {
  try {
    const { MongoMemoryServer } = await import('mongodb-memory-server');
    const server = await MongoMemoryServer.create({ instance: { ip: '127.0.0.1' } });
    return { uri: server.getUri(), stop: async () => void (await server.stop()) };
  } catch (err) {
    throw new Error(`mongodb-memory-server could not start (${String(err)}); set MONGODB_URI or run 'npm run services'`);
  }
}

async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    const ok = await probe.connect().then(() => true, () => false);
    probe.disconnect();
    if (ok) return { url, stop: async () => void child.kill('SIGTERM') };
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error("redis-server did not start; install it or set REDIS_URL ('npm run services')");
}

/**
 * Finds or starts the services.
 *
 * @param env - Usually `process.env`.
 * @throws Error with a one-line hint when a service can be neither found nor started.
 */
export async function startTestServices(env: NodeJS.ProcessEnv): Promise<TestServices> {
  const mongo = env.MONGODB_URI ? { uri: env.MONGODB_URI, stop: async () => {} } : await startMongo();
  const redis = env.REDIS_URL ? { url: env.REDIS_URL, stop: async () => {} } : await startRedis();
  const redisUrl = new URL(redis.url);
  redisUrl.pathname = `/${TEST_REDIS_DB}`;
  return {
    mongoUri: withDatabase(mongo.uri, TEST_DB),
    redisUrl: redisUrl.toString(),
    stop: async () => {
      await Promise.all([mongo.stop(), redis.stop()]);
    },
  };
}
