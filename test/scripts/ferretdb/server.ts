/**
 * The embedded FerretDB (scripts/ferretdb, built by scripts/provision.sh) as a
 * real child process on a free port, for the fault tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import mongoose from 'mongoose';
import { isListening } from '../../../scripts/local-services.js';
import { FERRETDB_BIN, freePort } from '../../helpers/services.js';
import { waitFor } from '../../helpers/poll.js';

/** A running FerretDB and what it printed. */
export interface FerretServer {
  port: number;
  uri: string;
  process: ChildProcess;
  output(): string;
  /** kill -9, and wait for the exit. */
  kill(): Promise<void>;
}

/**
 * Starts FerretDB on a free port with its SQLite files in `dataDir` (or on the
 * PostgreSQL database `postgresqlUrl` names); waits until it listens.
 *
 * @param options - `disablePushdown`: FerretDB applies every filter itself, pushing none down to SQL.
 * @throws Error when the binary is missing or it does not listen within 15 s (with its output).
 */
export async function startFerret(dataDir: string, postgresqlUrl?: string, options: { disablePushdown?: boolean } = {}): Promise<FerretServer> {
  if (!existsSync(FERRETDB_BIN)) throw new Error(`${FERRETDB_BIN} is not built (bash scripts/provision.sh)`);
  const port = await freePort();
  const args = ['-listen', `127.0.0.1:${port}`, '-data', dataDir, ...(postgresqlUrl ? ['-postgresql-url', postgresqlUrl] : []), ...(options.disablePushdown ? ['-disable-pushdown'] : [])];
  const child = spawn(FERRETDB_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  try {
    await waitFor('FerretDB to listen', async () => {
      if (child.exitCode !== null) throw new Error(`ferretdb exited with ${child.exitCode}`);
      return isListening(port);
    }, 15_000);
  } catch (err) {
    await kill();
    throw new Error(`${String(err)}; output:\n${output}`, { cause: err });
  }
  return { port, uri: `mongodb://127.0.0.1:${port}/`, process: child, output: () => output, kill };
}

/**
 * A connection that gives up quickly, so a server that stopped answering fails the test instead of hanging it.
 *
 * @param timeoutMs - Server selection and socket timeout, in milliseconds.
 */
export async function connectQuickly(uri: string, timeoutMs = 5_000): Promise<mongoose.Connection> {
  return mongoose.createConnection(uri, { serverSelectionTimeoutMS: timeoutMs, socketTimeoutMS: timeoutMs, autoIndex: false }).asPromise();
}
