/**
 * The MongoDB-compatible server `npm start` embeds when MONGODB_URI names this machine and nothing listens there:
 * mongod through mongodb-memory-server when it has one, otherwise the FerretDB binary scripts/provision.sh builds,
 * on a private PostgreSQL cluster (local-postgres.ts), or on SQLite when no PostgreSQL server is installed.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { clusterExists, findPostgres, startPostgresCluster } from './local-postgres.js';
import { displayPath, startFerretDB, type LocalService } from './local-services.js';

const run = promisify(execFile);

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
