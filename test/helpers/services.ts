/**
 * The MongoDB-compatible server and Redis the tests talk to. Tests flush what
 * they use, so they only ever use what they created for themselves:
 * - Redis: always a redis-server of their own on a free port (whatever REDIS_URL
 *   says), started here and stopped at the end.
 * - MongoDB: a database of their own (`hc_test_<pid>_<random>`, dropped at the end)
 *   on MONGODB_URI when set, otherwise on a server started here on a free port
 *   with its data in a temporary directory: mongodb-memory-server when its mongod
 *   is at hand, else the embedded database scripts/provision.sh builds (FerretDB 2 on DocumentDB).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEmbeddedMongo } from '../../scripts/embedded-mongo.js';
import { freePort, isListening } from '../../scripts/local-services.js';

/** A free TCP port on 127.0.0.1, for the tests' own servers. */
export { freePort };

/** Database used by tests inside the MongoDB server; new for every run, so no run reuses another's. */
export const TEST_DB = `hc_test_${process.pid}_${randomBytes(4).toString('hex')}`;

/** The FerretDB 2 binary scripts/provision.sh builds (this file runs as dist/test/helpers/services.js). */
export const FERRETDB_BIN = fileURLToPath(new URL('../../../.data/bin/ferretdb', import.meta.url));

/** Running test services and how to stop the ones started here. */
export interface TestServices {
  mongoUri: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/**
 * A service the tests need is missing. Its stack is its message, so mocha
 * prints the one-line hint and nothing else.
 */
export class TestServicesUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TestServicesUnavailable';
    this.stack = message;
  }
}

function withDatabase(uri: string, db: string): string {
  const url = new URL(uri);
  url.pathname = `/${db}`;
  return url.toString();
}

async function startMongo(): Promise<{ uri: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'hc-test-mongo-'));
  // PostgreSQL runs as the postgres user, who must reach the cluster's directory.
  chmodSync(dir, 0o755);
  const port = await freePort();
  try {
    const service = await startEmbeddedMongo(port, {
      mongoDir: join(dir, 'mongo'), ferretdbBin: FERRETDB_BIN, ferretdbDir: join(dir, 'ferretdb'), postgresDir: join(dir, 'pg'),
    });
    return {
      uri: `mongodb://127.0.0.1:${port}/`,
      stop: async () => {
        await service.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const reason = err instanceof Error ? err.message : String(err);
    throw new TestServicesUnavailable(`npm test: no MongoDB to start (${reason}); set MONGODB_URI to a server the tests may add a database to`);
  }
}

/** Starts redis-server on a free port, without persistence; the hint when it is not installed. */
async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--hz', '100'], { stdio: 'ignore' });
  let spawnError: Error | undefined;
  child.once('error', (err) => (spawnError = err));
  process.once('exit', () => child.kill('SIGKILL'));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  for (let i = 0; i < 100 && !spawnError && child.exitCode === null; i++) {
    if (await isListening(port)) return { url: `redis://127.0.0.1:${port}`, stop };
    await sleep(100);
  }
  await stop();
  throw new TestServicesUnavailable(
    spawnError ? 'npm test: redis-server is not installed; run `sudo apt-get install -y redis-server`' : `npm test: redis-server did not start on port ${port}`,
  );
}

/**
 * Starts the run's Redis and finds or starts its MongoDB server.
 *
 * @param env - Usually `process.env`; only MONGODB_URI is read (REDIS_URL never is).
 * @throws TestServicesUnavailable with a one-line hint when a service can be neither found nor started.
 */
export async function startTestServices(env: NodeJS.ProcessEnv): Promise<TestServices> {
  const redis = await startRedis();
  try {
    const mongo = env.MONGODB_URI ? { uri: env.MONGODB_URI, stop: async () => {} } : await startMongo();
    return {
      mongoUri: withDatabase(mongo.uri, TEST_DB),
      redisUrl: redis.url,
      stop: async () => {
        await Promise.all([mongo.stop(), redis.stop()]);
      },
    };
  } catch (err) {
    await redis.stop();
    throw err;
  }
}
