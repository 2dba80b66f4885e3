/**
 * A private PostgreSQL cluster for the embedded database (embedded-mongo.ts: FerretDB 2 on DocumentDB): the installed
 * server found, the cluster made once (initdb) under .data/ and started on a free port of 127.0.0.1 with the settings
 * its caller gives, as the `postgres` user when this process is root.
 */
import { execFile, spawnSync } from 'node:child_process';
import {
  appendFileSync, chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync,
  symlinkSync, writeFileSync, type Stats,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { displayPath, freePort, type LocalService } from './local-services.js';

const run = promisify(execFile);

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
export function clusterExists(dir: string): boolean {
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
  /** postgres:// URL of its `postgres` database. */
  url: string;
  port: number;
  /** The server's full version, `15.18`. */
  version: string;
  /** The cluster's directory (where a symlink `dir` points, when it is one). */
  dataDir: string;
  /** Fast shutdown (open sessions are ended); its data stays. */
  stop(): Promise<void>;
}

/** What a cluster is started with besides the defaults: `name = value` lines of postgresql.conf, and SQL run in the `postgres` database after each start, in order (idempotent statements). */
export interface ClusterOptions {
  settings?: readonly string[];
  setupSql?: readonly string[];
}

/** pg_hba.conf of the cluster: the postgres role over TCP from 127.0.0.1, without a password; nothing else. */
const PG_HBA = `# npm start's private cluster (scripts/local-postgres.ts): it listens on 127.0.0.1 only, without a Unix socket.
host all postgres 127.0.0.1/32 trust
`;

/**
 * Starts the private PostgreSQL cluster in `dir` on a free port of 127.0.0.1,
 * creating it the first time (initdb, UTF8, trust for the postgres role on
 * 127.0.0.1 only, no Unix socket). A cluster a killed start left running is
 * stopped first. Commits are not waited for on disk (`synchronous_commit=off`):
 * a crash of the machine may lose the last fraction of a second of writes, never
 * the cluster's consistency. `settings` (`name = value` lines of postgresql.conf)
 * are written to `hc-monitor.conf` in the cluster, which postgresql.conf includes,
 * on every start; then its `setupSql` runs.
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
export async function startPostgresCluster(dir: string, postgres: PostgresInstall, options: ClusterOptions = {}): Promise<PostgresCluster> {
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
  writeSettings(dataDir, options.settings ?? [], user);
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
    for (const sql of options.setupSql ?? []) await as('psql', ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-qc', sql]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { name: 'postgres', url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, version: server.version, dataDir, stop };
}

/** Writes `settings` to `hc-monitor.conf` in the cluster and makes postgresql.conf include it (once). */
function writeSettings(dataDir: string, settings: readonly string[], user: PostgresUser | undefined): void {
  const own = join(dataDir, 'hc-monitor.conf');
  writeFileSync(own, `# Written by npm start at each start (scripts/local-postgres.ts).\n${settings.join('\n')}\n`, { mode: 0o600 });
  if (user) chownSync(own, user.uid, user.gid);
  const main = join(dataDir, 'postgresql.conf');
  if (!readFileSync(main, 'utf8').includes("include 'hc-monitor.conf'")) appendFileSync(main, "\ninclude 'hc-monitor.conf'\n");
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
