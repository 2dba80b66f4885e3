/**
 * The MongoDB-compatible server `npm start` and `npm test` embed when MONGODB_URI names this machine and nothing listens there:
 * mongod through mongodb-memory-server when it has one, otherwise FerretDB 2 on DocumentDB, the PostgreSQL extension, in a private
 * PostgreSQL cluster (local-postgres.ts). scripts/embedded-db/build.sh builds both; docs/operations.md, "The embedded database".
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findPostgres, startPostgresCluster, type PostgresInstall } from './local-postgres.js';
import { startFerretDB, type LocalService } from './local-services.js';

const run = promisify(execFile);

/** The PostgreSQL major version DocumentDB is built for (scripts/embedded-db/build.sh). */
export const DOCUMENTDB_PG_MAJOR = '15';

/**
 * The mongod binary mongodb-memory-server has without downloading (its cache,
 * or a system binary it is configured to use), or undefined. Downloading is left
 * to scripts/provision.sh (which `npm start` and `npm test` run first), so a
 * machine without internet access falls back to DocumentDB at once, without a download trace.
 */
export async function locateMongod(): Promise<string | undefined> {
  const { DryMongoBinary } = await import('mongodb-memory-server');
  return DryMongoBinary.locateBinary(await DryMongoBinary.generateOptions());
}

/** Where an embedded MongoDB keeps its data. */
export interface EmbeddedMongoPaths {
  /** dbPath of mongodb-memory-server's mongod. */
  mongoDir: string;
  /** The FerretDB 2 binary scripts/provision.sh builds. */
  ferretdbBin: string;
  /** FerretDB's state directory; its log is `<ferretdbDir>.log`. */
  ferretdbDir: string;
  /** The PostgreSQL cluster with DocumentDB. */
  postgresDir: string;
}

/** An embedded MongoDB-compatible server, and what it is for the start line. */
export interface EmbeddedMongo extends LocalService {
  /** For example `mongod 8.2.6 (mongodb-memory-server)` or `FerretDB 2.7.0 on DocumentDB, PostgreSQL 15.20 (no mongod could be had)`. */
  server: string;
  /** Where its data is: `mongoDir` or `postgresDir`. */
  dataDir: string;
  /** Where `dataDir` points when it is a symlink (see {@link startPostgresCluster}). */
  dataLink?: string;
  /** The running FerretDB's pid (the process a fault test pauses); undefined for mongod. */
  pid?: number;
  /** postgres:// URL of the cluster's `postgres` database; undefined for mongod. */
  postgresUrl?: string;
}

/**
 * The cluster's settings: DocumentDB's libraries and background jobs (it schedules its own with pg_cron), and autovacuum
 * that keeps up with a check collection rewritten on every ping (each update leaves a dead version of the row and of
 * every index entry; docs/architecture.md, "Indexes").
 */
export const DOCUMENTDB_SETTINGS: readonly string[] = Object.freeze([
  "shared_preload_libraries = 'pg_cron, pg_documentdb_core, pg_documentdb'",
  "cron.database_name = 'postgres'",
  'documentdb.enableBackgroundWorker = true',
  'documentdb.enableBackgroundWorkerJobs = true',
  'max_connections = 300',
  'shared_buffers = 256MB',
  'autovacuum_naptime = 5s',
  'autovacuum_vacuum_scale_factor = 0.02',
  'autovacuum_vacuum_insert_scale_factor = 0.05',
  'autovacuum_analyze_scale_factor = 0.05',
  'autovacuum_vacuum_cost_limit = 2000',
]);

/** Whether the installed PostgreSQL has DocumentDB (scripts/embedded-db/build.sh installs it). */
async function hasDocumentDB(postgres: PostgresInstall): Promise<boolean> {
  const { stdout } = await run(join(postgres.bin, 'pg_config'), ['--sharedir']).catch(() => ({ stdout: '' }));
  const sharedir = stdout.trim() || `/usr/share/postgresql/${postgres.major}`;
  return existsSync(join(sharedir, 'extension', 'documentdb.control'));
}

/**
 * Starts FerretDB 2 on a DocumentDB cluster in `paths.postgresDir` (made the first time) on 127.0.0.1:`port`.
 *
 * @throws Error when PostgreSQL 15 with DocumentDB or the FerretDB binary is missing, or either does not start.
 */
export async function startDocumentDB(port: number, paths: Omit<EmbeddedMongoPaths, 'mongoDir'>): Promise<EmbeddedMongo> {
  const postgres = findPostgres(DOCUMENTDB_PG_MAJOR);
  if (!postgres || !(await hasDocumentDB(postgres))) {
    throw new Error(`PostgreSQL ${DOCUMENTDB_PG_MAJOR} with DocumentDB is not installed (bash scripts/provision.sh builds it)`);
  }
  if (!existsSync(paths.ferretdbBin)) throw new Error(`${paths.ferretdbBin} is not built (bash scripts/provision.sh)`);
  const version = await programVersion(paths.ferretdbBin, ['--version'], /^version: v(\S+)/m);
  if (!version?.startsWith('2.')) throw new Error(`${paths.ferretdbBin} is not FerretDB 2 (bash scripts/provision.sh rebuilds it)`);
  const cluster = await startPostgresCluster(paths.postgresDir, postgres, {
    settings: DOCUMENTDB_SETTINGS,
    setupSql: ['CREATE EXTENSION IF NOT EXISTS documentdb CASCADE'],
  });
  try {
    mkdirSync(paths.ferretdbDir, { recursive: true });
    const service = await startFerretDB(port, paths.ferretdbBin, paths.ferretdbDir, cluster.url);
    return {
      name: 'ferretdb',
      server: `FerretDB ${version} on DocumentDB, PostgreSQL ${cluster.version}`,
      dataDir: paths.postgresDir,
      ...(cluster.dataDir === paths.postgresDir ? {} : { dataLink: cluster.dataDir }),
      pid: service.pid,
      postgresUrl: cluster.url,
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
 * Starts a MongoDB-compatible server on 127.0.0.1:`port`: mongod through mongodb-memory-server with a persistent dbPath when its
 * mongod is at hand ({@link locateMongod}), else {@link startDocumentDB}.
 *
 * @throws Error when neither can be started.
 */
export async function startEmbeddedMongo(port: number, paths: EmbeddedMongoPaths): Promise<EmbeddedMongo> {
  const mongod = await locateMongod();
  if (!mongod) {
    const started = await startDocumentDB(port, paths);
    return { ...started, server: `${started.server} (no mongod could be had)` };
  }
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
