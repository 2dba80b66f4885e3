/**
 * Local MongoDB and Redis for `npm start` when MONGODB_URI / REDIS_URL name
 * this machine and nothing listens there: mongod through mongodb-memory-server
 * when it has one, otherwise the FerretDB binary scripts/provision.sh builds, on
 * a private PostgreSQL cluster (or SQLite when no PostgreSQL server is
 * installed); and a redis-server child. Their data is kept under .data/ so
 * checks survive a restart.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync, chownSync, closeSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync,
  readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync, type Stats,
} from 'node:fs';
import { connect, createServer } from 'node:net';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

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
 * to scripts/provision.sh (which `npm start` and `npm test` run first), so a
 * machine without internet access falls back to FerretDB at once, without a download trace.
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
  /**
   * The PostgreSQL cluster FerretDB runs on when no mongod is at hand and a
   * PostgreSQL server is installed ({@link startPostgresCluster}); without it
   * FerretDB keeps its data in SQLite in `ferretdbDir`.
   */
  postgresDir?: string;
}

/** An embedded MongoDB-compatible server, and what it is for the start line. */
export interface EmbeddedMongo extends LocalService {
  /** For example `mongod 8.2.6 (mongodb-memory-server)` or `FerretDB on PostgreSQL 15.18 (stand-in; no mongod could be had)`. */
  server: string;
  /** Where its data is: `mongoDir`, `postgresDir` or `ferretdbDir`. */
  dataDir: string;
  /** Where `dataDir` points when it is a symlink (see {@link startPostgresCluster}). */
  dataLink?: string;
}

/** Why FerretDB stands in. */
const NO_MONGOD = 'no mongod could be had';

/**
 * Starts a MongoDB-compatible server on 127.0.0.1:`port`, the first of:
 * 1. mongod through mongodb-memory-server with a persistent dbPath, when its
 *    mongod is at hand ({@link locateMongod});
 * 2. the FerretDB binary scripts/provision.sh builds, on a private PostgreSQL
 *    cluster in `postgresDir` when that is given and a PostgreSQL server is
 *    installed (FerretDB pushes equality filters down to PostgreSQL, but only
 *    bare `_id` filters to SQLite: several times the ping throughput);
 * 3. that FerretDB on SQLite in `ferretdbDir`. Also chosen when `ferretdbDir`
 *    already holds SQLite databases and the PostgreSQL cluster does not exist
 *    yet, so data an earlier version kept there is not left behind unseen.
 *
 * @throws Error when none can be started (the PostgreSQL path does not fall
 *   back to SQLite when it fails: its data would seem lost).
 */
export async function startEmbeddedMongo(port: number, paths: EmbeddedMongoPaths): Promise<EmbeddedMongo> {
  const mongod = await locateMongod();
  if (mongod) {
    mkdirSync(paths.mongoDir, { recursive: true });
    const version = await programVersion(mongod, ['--version'], /db version v(\S+)/);
    const { MongoMemoryServer } = await import('mongodb-memory-server');
    const server = await MongoMemoryServer.create({
      instance: { ip: '127.0.0.1', port, dbPath: paths.mongoDir, storageEngine: 'wiredTiger' },
      spawn: { detached: true },
    });
    return {
      name: 'mongodb-memory-server',
      server: `mongod${version ? ` ${version}` : ''} (mongodb-memory-server)`,
      dataDir: paths.mongoDir,
      stop: async () => void (await server.stop({ doCleanup: false })),
    };
  }
  if (!existsSync(paths.ferretdbBin)) {
    throw new Error(`mongodb-memory-server has no mongod and ${paths.ferretdbBin} is not built (scripts/provision.sh)`);
  }
  mkdirSync(paths.ferretdbDir, { recursive: true });
  const ferretdb = (postgresqlUrl?: string) => startFerretDB(port, paths.ferretdbBin, paths.ferretdbDir, postgresqlUrl);
  const postgres = paths.postgresDir === undefined ? undefined : findPostgres();
  const sqliteData = readdirSync(paths.ferretdbDir).some((f) => f.endsWith('.sqlite'));
  if (paths.postgresDir === undefined || !postgres || (sqliteData && !clusterExists(paths.postgresDir))) {
    const why = !postgres ? NO_MONGOD + (paths.postgresDir === undefined ? '' : ', no PostgreSQL server installed')
      : `${NO_MONGOD}; ${displayPath(paths.ferretdbDir)} holds earlier data: move it aside to use PostgreSQL`;
    const service = await ferretdb();
    return { ...service, server: `FerretDB on SQLite (stand-in; ${why})`, dataDir: paths.ferretdbDir };
  }
  const cluster = await startPostgresCluster(paths.postgresDir, postgres);
  try {
    const service = await ferretdb(cluster.url);
    return {
      name: 'ferretdb',
      server: `FerretDB on PostgreSQL ${cluster.version} (stand-in; ${NO_MONGOD})`,
      dataDir: paths.postgresDir,
      ...(cluster.dataDir === paths.postgresDir ? {} : { dataLink: cluster.dataDir }),
      stop: async () => {
        await service.stop();
        await cluster.stop();
      },
    };
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}

/**
 * Starts the FerretDB binary on 127.0.0.1:`port`: on the PostgreSQL database
 * `postgresqlUrl` names, or with SQLite databases in `dataDir` (its log is `<dataDir>.log` either way).
 */
export async function startFerretDB(port: number, bin: string, dataDir: string, postgresqlUrl?: string): Promise<LocalService> {
  mkdirSync(dataDir, { recursive: true });
  const args = ['-listen', `127.0.0.1:${port}`, '-data', dataDir, ...(postgresqlUrl ? ['-postgresql-url', postgresqlUrl] : [])];
  return spawnService('ferretdb', bin, args, port, `${dataDir}.log`);
}

/** `path` relative to the working directory when it is inside it (`.data/pg`), else as it is. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/**
 * The version a program prints, or undefined.
 *
 * @param pattern - Its first group is the version.
 */
async function programVersion(program: string, args: string[], pattern: RegExp): Promise<string | undefined> {
  try {
    const { stdout } = await run(program, args);
    return pattern.exec(stdout)?.[1];
  } catch {
    return undefined;
  }
}

/** An installed PostgreSQL server: the directory with its initdb, pg_ctl, postgres, psql and createdb. */
export interface PostgresInstall {
  bin: string;
  /** Major version, `15`. */
  major: string;
  /** Full version, `15.18`. */
  version: string;
}

const POSTGRES_PROGRAMS = ['initdb', 'pg_ctl', 'postgres', 'psql', 'createdb'];

/** The PostgreSQL server programs on this machine, newest first: Debian's /usr/lib/postgresql/<major>/bin, then PATH. */
function postgresBinDirs(): string[] {
  let debian: string[] = [];
  try {
    debian = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)).map((v) => `/usr/lib/postgresql/${v}/bin`);
  } catch {
    // Not Debian's layout.
  }
  const onPath = (process.env.PATH ?? '').split(':').filter(Boolean);
  const dirs = [...debian, ...onPath].filter((dir) => POSTGRES_PROGRAMS.every((p) => existsSync(join(dir, p))));
  return [...new Set(dirs)];
}

/**
 * An installed PostgreSQL server (the newest), or the one of major version
 * `major`; undefined when there is none.
 */
export function findPostgres(major?: string): PostgresInstall | undefined {
  for (const bin of postgresBinDirs()) {
    const out = versionOutput(join(bin, 'postgres'));
    const match = /\(PostgreSQL\) (\d+)(?:\.(\d+))?/.exec(out);
    if (!match) continue;
    if (major !== undefined && match[1] !== major) continue;
    return { bin, major: match[1], version: match[2] === undefined ? match[1] : `${match[1]}.${match[2]}` };
  }
  return undefined;
}

/** `postgres --version` (it answers even as root), or '' when it cannot run. */
function versionOutput(program: string): string {
  const result = spawnSync(program, ['--version'], { encoding: 'utf8', timeout: 5_000 });
  return result.status === 0 ? result.stdout : '';
}

/** Whether `dir` (or the directory a symlink `dir` names) is an initialised PostgreSQL cluster. */
function clusterExists(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION'));
}

/** The user PostgreSQL runs as: this process's own, or `postgres` when this process is root (PostgreSQL refuses root). */
interface PostgresUser {
  uid: number;
  gid: number;
  home: string;
}

/**
 * The `postgres` account as root (Debian's package creates it), else undefined: the cluster then runs as this user.
 *
 * @throws Error when this process is root and there is no `postgres` user.
 */
function postgresUser(): PostgresUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const entry = (readPasswd() ?? '').split('\n').map((line) => line.split(':')).find((fields) => fields[0] === 'postgres');
  if (!entry || entry.length < 6) throw new Error('as root PostgreSQL must run as another user, and there is no user `postgres`');
  return { uid: Number(entry[2]), gid: Number(entry[3]), home: entry[5] };
}

function readPasswd(): string | undefined {
  const got = spawnSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' });
  if (got.status === 0) return got.stdout;
  try {
    return readFileSync('/etc/passwd', 'utf8');
  } catch {
    return undefined;
  }
}

/** A running private PostgreSQL cluster. */
export interface PostgresCluster extends LocalService {
  /** postgres:// URL of its `ferretdb` database. */
  url: string;
  port: number;
  /** The server's full version, `15.18`. */
  version: string;
  /** The cluster's directory (where a symlink `dir` points, when it is one). */
  dataDir: string;
  /** Fast shutdown (open sessions are ended); its data stays. */
  stop(): Promise<void>;
}

/** pg_hba.conf of the cluster: the postgres role over TCP from 127.0.0.1, without a password; nothing else. */
const PG_HBA = `# npm start's private cluster (scripts/local-services.ts): it listens on 127.0.0.1 only, without a Unix socket.
host all postgres 127.0.0.1/32 trust
`;

/**
 * Starts the private PostgreSQL cluster in `dir` on a free port of 127.0.0.1,
 * creating it the first time (initdb, UTF8, trust for the postgres role on
 * 127.0.0.1 only, no Unix socket) with a database `ferretdb`. A cluster a
 * killed start left running is stopped first. Commits are not waited for on
 * disk (`synchronous_commit=off`): a crash of the machine may lose the last
 * fraction of a second of writes, never the cluster's consistency.
 *
 * As root it runs as the `postgres` user (PostgreSQL refuses root), like
 * scripts/services.sh. When that user cannot reach `dir` (a checkout under a
 * private directory such as /root or a mktemp -d one), the cluster is made in
 * that user's home (`~postgres/hc-monitor-XXXXXX/pg`) and `dir` becomes a
 * symlink to it, so later starts find it again.
 *
 * @param postgres - The server to use ({@link findPostgres}); an existing cluster needs its own major version.
 * @throws Error when the cluster cannot be made or started.
 */
export async function startPostgresCluster(dir: string, postgres: PostgresInstall): Promise<PostgresCluster> {
  const user = postgresUser();
  let server = postgres;
  const as = (program: string, args: string[]) =>
    run(join(server.bin, program), args, { cwd: '/', ...(user ? { uid: user.uid, gid: user.gid } : {}) });
  const dataDir = await clusterDir(dir, user);
  if (clusterExists(dataDir)) {
    const major = readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim();
    const own = major === postgres.major ? postgres : findPostgres(major);
    if (!own) throw new Error(`${displayPath(dir)} is a PostgreSQL ${major} cluster and PostgreSQL ${major} is not installed`);
    server = own;
  } else {
    await initCluster(dataDir, user, (args) => as('initdb', args));
  }
  if (await as('pg_ctl', ['-D', dataDir, 'status']).then(() => true, () => false)) {
    await as('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '30', 'stop']);
  }
  // A kill -9 of the postmaster leaves its backends running for a moment, and a new one refuses their
  // shared memory until they have gone; and a free port can be taken before the server binds it.
  let port = await freePort();
  for (let attempt = 1; ; attempt++) {
    const options = [`-p ${port}`, '-c listen_addresses=127.0.0.1', "-c unix_socket_directories=''", '-c synchronous_commit=off'];
    const started = await as('pg_ctl', ['-D', dataDir, '-l', join(dataDir, 'server.log'), '-w', '-t', '60', '-s', 'start', '-o', options.join(' ')])
      .then(() => undefined, (err: Error) => err);
    if (!started) break;
    if (attempt === 5) throw new Error(`PostgreSQL did not start in ${dataDir} (see ${join(dataDir, 'server.log')}): ${started.message.split('\n')[0]}`);
    await sleep(1_000);
    port = await freePort();
  }
  const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  // Last resort if this process dies without a graceful shutdown: a fast shutdown.
  const onExit = () => {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // Already gone.
    }
  };
  process.once('exit', onExit);
  const stop = async () => {
    process.off('exit', onExit);
    await as('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '30', '-s', 'stop']).catch(() => undefined);
  };
  try {
    const connection = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres'];
    const exists = await as('psql', ['-X', ...connection, '-d', 'postgres', '-tAc', "SELECT 1 FROM pg_database WHERE datname = 'ferretdb'"]);
    if (exists.stdout.trim() !== '1') await as('createdb', [...connection, 'ferretdb']);
  } catch (err) {
    await stop();
    throw err;
  }
  return { name: 'postgres', url: `postgres://postgres@127.0.0.1:${port}/ferretdb`, port, version: server.version, dataDir, stop };
}

/**
 * The directory the cluster of `dir` lives in: `dir` itself, or where a symlink
 * `dir` points; as root, when the postgres user cannot reach `dir`'s parent,
 * a new directory in its home, which `dir` is made a symlink to.
 */
async function clusterDir(dir: string, user: PostgresUser | undefined): Promise<string> {
  const stat = lstatOrUndefined(dir);
  if (stat?.isSymbolicLink()) return resolve(dirname(dir), readlinkSync(dir));
  mkdirSync(dirname(dir), { recursive: true });
  if (stat || !user) return dir;
  const reachable = await run('test', ['-x', dirname(dir)], { cwd: '/', uid: user.uid, gid: user.gid }).then(() => true, () => false);
  if (reachable) return dir;
  const outside = mkdtempSync(join(user.home, 'hc-monitor-'));
  chownSync(outside, user.uid, user.gid);
  chmodSync(outside, 0o700);
  const target = join(outside, 'pg');
  symlinkSync(target, dir);
  return target;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Runs initdb into `<dataDir>.initdb` and renames that to `dataDir` once the
 * cluster is complete, so a start killed halfway leaves no half-made cluster.
 *
 * @throws Error when `dataDir` exists, is not empty and is no cluster.
 */
async function initCluster(dataDir: string, user: PostgresUser | undefined, initdb: (args: string[]) => Promise<unknown>): Promise<void> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} is not empty and is no PostgreSQL cluster; move it aside`);
  }
  const building = `${dataDir}.initdb`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { mode: 0o700 });
  if (user) chownSync(building, user.uid, user.gid);
  await initdb(['-D', building, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-instructions']);
  const hba = join(building, 'pg_hba.conf');
  writeFileSync(hba, PG_HBA, { mode: 0o600 });
  if (user) chownSync(hba, user.uid, user.gid);
  renameSync(building, dataDir);
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
