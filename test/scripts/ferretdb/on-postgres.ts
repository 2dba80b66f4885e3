/** FerretDB on a PostgreSQL cluster of its own for each test: the set-up of the PostgreSQL backend's tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type mongoose from 'mongoose';
import { connectQuickly, startFerret, type FerretServer } from './server.js';
import { startPostgres, type Postgres } from './postgres.js';
import { waitFor } from '../../helpers/poll.js';

/** What a test gets: the cluster, a connection to FerretDB on it, and where a collection is stored. */
export interface FerretOnPostgres {
  postgres: () => Postgres;
  connection: () => mongoose.Connection;
  /** The PostgreSQL table FerretDB keeps collection `name` of database `db` in. */
  tableOf: (db: string, name: string) => Promise<string>;
  /**
   * Runs ANALYZE once the embedding program's index builds are over: `table` has `indexes` valid `_hcgin_`/`_hcmin_`
   * indexes (all it wants for the collection) and no CREATE INDEX runs in the cluster. ANALYZE beside a running
   * CREATE INDEX CONCURRENTLY deadlocks (each waits for the other), so waiting for the indexes a test looks at is
   * not enough: every build must be over.
   * @throws Error when that is not so within 30 s.
   */
  analyze: (table: string, indexes: number) => Promise<void>;
}

/**
 * Registers mocha hooks that start, before each test, a PostgreSQL cluster and FerretDB on it (its directory a new temporary one named
 * `prefix…`) with a connection, and stop and remove them after it.
 */
export function ferretOnPostgresPerTest(prefix: string): FerretOnPostgres {
  let dir: string;
  let postgres: Postgres | undefined;
  let server: FerretServer | undefined;
  let connection: mongoose.Connection | undefined;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    postgres = await startPostgres();
    server = await startFerret(dir, postgres.url);
    connection = await connectQuickly(server.uri);
  });
  afterEach(async () => {
    await connection?.close();
    await server?.kill();
    await postgres?.stop();
    connection = server = postgres = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    postgres: () => postgres!,
    connection: () => connection!,
    tableOf: async (db, name) => (await postgres!.psql(`SELECT _jsonb->>'table' FROM ${db}._ferretdb_database_metadata WHERE _jsonb->>'_id' = '${name}'`)).trim(),
    analyze: async (table, indexes) => {
      const settled = async (): Promise<boolean> => {
        const [built, building] = (await postgres!.psql(`SELECT
          (SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
            WHERE t.relname = '${table}' AND c.relname ~ '_hc(gin|min)_' AND i.indisvalid AND i.indisready),
          (SELECT count(*) FROM pg_stat_progress_create_index)`)).trim().split('|').map(Number);
        return built === indexes && building === 0;
      };
      await waitFor(`${indexes} index builds on ${table} over, and no other running`, settled, 30_000);
      await postgres!.psql('ANALYZE');
    },
  };
}
