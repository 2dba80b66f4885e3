/**
 * Local MongoDB and Redis for `npm start` when MONGODB_URI / REDIS_URL are
 * unset and nothing listens on the default ports: mongodb-memory-server (or
 * the FerretDB binary `npm run services` builds) and a redis-server child,
 * with their data kept under .data/ so checks survive a restart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a started service may take to accept connections, in milliseconds. */
const START_TIMEOUT_MS = 30_000;
/** How long a stopping child may take before it is killed, in milliseconds. */
const STOP_TIMEOUT_MS = 3_000;

/** A service started here. */
export interface LocalService {
  /** What it is, for logs: `mongodb-memory-server`, `ferretdb`, `redis-server`. */
  name: string;
  /** Stops it; its data stays. */
  stop(): Promise<void>;
}

/**
 * Whether something accepts TCP connections on 127.0.0.1:`port`.
 *
 * @param timeoutMs - Treat no answer within this many milliseconds as "no".
 */
export async function isListening(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: timeoutMs });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/** Stops a child: SIGTERM, then SIGKILL after {@link STOP_TIMEOUT_MS}. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * Spawns `command` with output to `logFile` and waits until it listens on `port`.
 * The child gets its own process group, so a Ctrl-C in the terminal reaches
 * only us and we stop it after our connections are closed.
 *
 * @throws Error when it cannot be spawned, exits, or does not listen in time.
 */
async function spawnService(name: string, command: string, args: string[], port: number, logFile: string): Promise<LocalService> {
  const log = openSync(logFile, 'a');
  const child = spawn(command, args, { stdio: ['ignore', log, log], detached: true });
  closeSync(log);
  let spawnError: Error | undefined;
  child.once('error', (err) => (spawnError = err));
  // Last resort if this process dies without a graceful shutdown.
  process.once('exit', () => child.kill('SIGTERM'));
  const giveUpAt = Date.now() + START_TIMEOUT_MS;
  while (!(await isListening(port))) {
    let problem: string | undefined;
    if (spawnError) problem = `${name}: ${spawnError.message}`;
    else if (child.exitCode !== null) problem = `${name} exited with ${child.exitCode} (see ${logFile})`;
    else if (Date.now() > giveUpAt) problem = `${name} did not listen on port ${port} within ${START_TIMEOUT_MS} ms`;
    if (problem) {
      await stopChild(child);
      throw new Error(problem);
    }
    await sleep(100);
  }
  return { name, stop: () => stopChild(child) };
}

/**
 * The settings the service requires of Redis (README "Redis settings"): the
 * append-only file on and fsynced every second, so queued work survives a
 * kill -9 of Redis; no eviction, so a full Redis refuses writes instead of
 * silently dropping jobs; and `hz 100`, since Redis ends a timed-out blocking
 * pop (how a BullMQ worker waits for its next delayed job) only on its
 * 1000/hz-millisecond timer: the default of 10 makes deadlines fire up to
 * 100 ms late.
 */
export const REDIS_REQUIRED_SETTINGS: readonly string[] = Object.freeze([
  '--appendonly', 'yes',
  '--appendfsync', 'everysec',
  '--maxmemory-policy', 'noeviction',
  '--hz', '100',
]);

/**
 * Starts redis-server on 127.0.0.1:`port` with {@link REDIS_REQUIRED_SETTINGS}
 * and its data (append-only file and RDB snapshots) in `dataDir`.
 *
 * @param command - The program; `redis-server` from PATH unless a test says otherwise.
 * @throws Error when redis-server is missing or does not start.
 */
export async function startRedisServer(port: number, dataDir: string, command = 'redis-server'): Promise<LocalService> {
  mkdirSync(dataDir, { recursive: true });
  const args = ['--bind', '127.0.0.1', '--port', String(port), '--dir', dataDir, '--daemonize', 'no', ...REDIS_REQUIRED_SETTINGS];
  return spawnService('redis-server', command, args, port, `${dataDir}.log`);
}

/**
 * The mongod binary mongodb-memory-server has without downloading (its cache,
 * or a system binary it is configured to use), or undefined. Downloading is left
 * to `npm install` (its postinstall) and scripts/provision.sh, so a machine
 * without internet access falls back to FerretDB at once, without a download trace.
 */
export async function locateMongod(): Promise<string | undefined> {
  const { DryMongoBinary } = await import('mongodb-memory-server');
  return DryMongoBinary.locateBinary(await DryMongoBinary.generateOptions());
}

/** Where an embedded MongoDB keeps its data. */
export interface EmbeddedMongoPaths {
  /** dbPath of mongodb-memory-server's mongod. */
  mongoDir: string;
  /** The FerretDB binary scripts/provision.sh builds. */
  ferretdbBin: string;
  /** FerretDB's SQLite directory. */
  ferretdbDir: string;
}

/**
 * Starts a MongoDB-compatible server on 127.0.0.1:`port`: mongodb-memory-server
 * with a persistent dbPath when its mongod is at hand ({@link locateMongod}),
 * otherwise the FerretDB binary scripts/provision.sh builds.
 *
 * @throws Error when neither can be started.
 */
export async function startEmbeddedMongo(port: number, paths: EmbeddedMongoPaths): Promise<LocalService> {
  const mongod = await locateMongod();
  if (mongod) {
    mkdirSync(paths.mongoDir, { recursive: true });
    const { MongoMemoryServer } = await import('mongodb-memory-server');
    const server = await MongoMemoryServer.create({
      instance: { ip: '127.0.0.1', port, dbPath: paths.mongoDir, storageEngine: 'wiredTiger' },
      spawn: { detached: true },
    });
    return { name: 'mongodb-memory-server', stop: async () => void (await server.stop({ doCleanup: false })) };
  }
  if (!existsSync(paths.ferretdbBin)) {
    throw new Error(`mongodb-memory-server has no mongod and ${paths.ferretdbBin} is not built (scripts/provision.sh)`);
  }
  mkdirSync(paths.ferretdbDir, { recursive: true });
  const args = ['-listen', `127.0.0.1:${port}`, '-data', paths.ferretdbDir];
  return spawnService('ferretdb', paths.ferretdbBin, args, port, `${paths.ferretdbDir}.log`);
}
