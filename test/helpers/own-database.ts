/**
 * A MongoDB-compatible server of a test's own, to pause (SIGSTOP), resume and kill without touching the run's shared one: the
 * embedded database (FerretDB 2 on DocumentDB, scripts/embedded-mongo.ts) in a temporary directory, on free ports.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { startDocumentDB, type EmbeddedMongo } from '../../scripts/embedded-mongo.js';
import { FERRETDB_BIN, freePort } from './services.js';
import { waitFor } from './poll.js';

/** A running server of a test's own. */
export interface OwnDatabase {
  port: number;
  /** `mongodb://127.0.0.1:<port>/`, to append a database name to. */
  uri: string;
  /** The PostgreSQL cluster's `postgres` database. */
  postgresUrl: string;
  /** Stops FerretDB (SIGSTOP) and resolves once the kernel shows every one of its threads stopped. */
  pause(): Promise<void>;
  /** Lets it run again (SIGCONT). */
  resume(): void;
  /** Stops the server and its cluster and removes their data. */
  stop(): Promise<void>;
}

/** Whether every thread of process `pid` is stopped (state `T` in /proc). */
function allStopped(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).every((tid) => /^State:\s+T/m.test(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8')));
  } catch {
    return false;
  }
}

/**
 * Starts a server of the test's own.
 *
 * @throws Error when the embedded database is not built (scripts/provision.sh) or does not start.
 */
export async function startOwnDatabase(): Promise<OwnDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'hc-own-db-'));
  // PostgreSQL runs as the postgres user, who must reach the cluster's directory.
  chmodSync(dir, 0o755);
  const port = await freePort();
  let server: EmbeddedMongo;
  try {
    server = await startDocumentDB(port, { ferretdbBin: FERRETDB_BIN, ferretdbDir: join(dir, 'ferretdb'), postgresDir: join(dir, 'pg') });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const pid = server.pid!;
  return {
    port,
    uri: `mongodb://127.0.0.1:${port}/`,
    postgresUrl: server.postgresUrl!,
    pause: async () => {
      process.kill(pid, 'SIGSTOP');
      await waitFor('the database to be stopped', async () => allStopped(pid), 10_000);
    },
    resume: () => void process.kill(pid, 'SIGCONT'),
    stop: async () => {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Already gone.
      }
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A connection that gives up quickly, so a server that stopped answering fails the test instead of hanging it.
 *
 * @param timeoutMs - Server selection and socket timeout, in milliseconds.
 */
export async function connectQuickly(uri: string, timeoutMs = 5_000): Promise<mongoose.Connection> {
  return mongoose.createConnection(uri, { serverSelectionTimeoutMS: timeoutMs, socketTimeoutMS: timeoutMs, autoIndex: false }).asPromise();
}
