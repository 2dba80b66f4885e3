/**
 * The MongoDB-compatible servers a test of MongoDB's own behaviour runs against:
 * the server MONGODB_URI names when it is set (a real mongod, say), otherwise the
 * embedded FerretDB on SQLite and on a throwaway PostgreSQL (when PostgreSQL is
 * installed), each started here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFerret } from './server.js';
import { startPostgres } from './postgres.js';

/** A running server. */
export interface Server {
  uri: string;
  stop(): Promise<void>;
}

/** A server to run against; `start` returns undefined when it is not available here (the test skips it). */
export interface Target {
  name: string;
  start(): Promise<Server | undefined>;
}

/** FerretDB on SQLite, with its files in a temporary directory. */
async function ferretOnSQLite(): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'hc-ferretdb-'));
  const server = await startFerret(dir);
  return {
    uri: server.uri,
    stop: async () => {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** FerretDB on a throwaway PostgreSQL cluster, or undefined when PostgreSQL is not installed. */
async function ferretOnPostgreSQL(): Promise<Server | undefined> {
  let postgres;
  try {
    postgres = await startPostgres();
  } catch (err) {
    if (/not installed|ENOENT/.test(String(err))) return undefined;
    throw err;
  }
  const dir = mkdtempSync(join(tmpdir(), 'hc-ferretdb-pg-'));
  try {
    const server = await startFerret(dir, postgres.url);
    return {
      uri: server.uri,
      stop: async () => {
        await server.kill();
        await postgres.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await postgres.stop();
    throw err;
  }
}

/** MONGODB_URI's server when it is set, otherwise FerretDB on SQLite and on PostgreSQL. */
export function mongoTargets(env: NodeJS.ProcessEnv = process.env): Target[] {
  const uri = env.MONGODB_URI;
  if (uri) return [{ name: `MONGODB_URI (${uri.replace(/\/\/[^@/]*@/, '//')})`, start: async () => ({ uri, stop: async () => {} }) }];
  return [
    { name: 'FerretDB on SQLite', start: ferretOnSQLite },
    { name: 'FerretDB on PostgreSQL', start: ferretOnPostgreSQL },
  ];
}
