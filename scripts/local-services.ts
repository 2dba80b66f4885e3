/**
 * Local services for `npm start`, the tests and the bench: a child process started as a service (its log in a file,
 * ready once it listens, stopped with SIGTERM then SIGKILL), redis-server with the settings the service requires,
 * and the FerretDB binary. The embedded MongoDB `npm start` chooses is in embedded-mongo.ts, the private
 * PostgreSQL cluster FerretDB runs on in local-postgres.ts. Data is kept under .data/ so checks survive a restart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { isAbsolute, relative } from 'node:path';
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
  /** Its process id, when it is a child of this process. */
  pid?: number;
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

/**
 * Stops a child: SIGTERM, then SIGKILL when it has not exited after `graceMs` milliseconds; at once when it has exited.
 *
 * @param graceMs - By default {@link STOP_TIMEOUT_MS}.
 */
export async function stopChild(child: ChildProcess, graceMs = STOP_TIMEOUT_MS): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
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
  const onExit = () => child.kill('SIGTERM');
  process.once('exit', onExit);
  child.once('exit', () => process.off('exit', onExit));
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
  return { name, pid: child.pid, stop: () => stopChild(child) };
}

/**
 * The settings the service requires of Redis (docs/configuration.md, "Redis settings"): the
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
 * Starts FerretDB 2 on 127.0.0.1:`port` on the PostgreSQL database with DocumentDB that `postgresqlUrl` names, without
 * authentication (it listens on loopback only), telemetry or its debug listener; its state file is in `stateDir`, its log
 * `<stateDir>.log`.
 */
export async function startFerretDB(port: number, bin: string, stateDir: string, postgresqlUrl: string): Promise<LocalService> {
  mkdirSync(stateDir, { recursive: true });
  const args = [`--listen-addr=127.0.0.1:${port}`, `--postgresql-url=${postgresqlUrl}`, `--state-dir=${stateDir}`, '--no-auth',
    '--telemetry=disable', '--debug-addr=', '--log-level=warn'];
  return spawnService('ferretdb', bin, args, port, `${stateDir}.log`);
}

/** `path` relative to the working directory when it is inside it (`.data/pg`), else as it is. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** A free TCP port on 127.0.0.1 (a fixed one could be answered by a stale server). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolvePort(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}
