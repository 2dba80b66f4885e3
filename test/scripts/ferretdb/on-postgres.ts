/** FerretDB on a PostgreSQL cluster of its own for each test: the set-up of the PostgreSQL backend's tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type mongoose from 'mongoose';
import { connectQuickly, startFerret, type FerretServer } from './server.js';
import { startPostgres, type Postgres } from './postgres.js';

/** What a test gets: the cluster, a connection to FerretDB on it, and where a collection is stored. */
export interface FerretOnPostgres {
  postgres: () => Postgres;
  connection: () => mongoose.Connection;
  /** The PostgreSQL table FerretDB keeps collection `name` of database `db` in. */
  tableOf: (db: string, name: string) => Promise<string>;
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
  };
}
