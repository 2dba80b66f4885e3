/**
 * A database process of the bench's own, to pause (SIGSTOP) without touching a shared one: a FerretDB started
 * here on the same PostgreSQL server as the FerretDB that answers at MONGODB_URI (in a PostgreSQL database created
 * for the run and dropped at the end), or on SQLite in a temporary directory when that one is not found.
 * And a project inserted through a connection of the bench's own (a database other than the bench's main one).
 * Tooling for `npm run bench` only (MongoDB-compatible servers other than FerretDB are not looked for).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Connection } from 'mongoose';
import { Project } from '../../shared/models/project.js';
import { hashApiKey } from '../../shared/services/projects.js';
import { findPostgres } from '../local-postgres.js';
import { freePort, isListening, stopChild } from '../local-services.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A started database process. */
export interface OwnDatabase {
  /** `mongodb://127.0.0.1:<port>/` (a database name is to be added). */
  uri: string;
  /** What it is, for the report: `FerretDB on PostgreSQL (127.0.0.1:5433)`. */
  backend: string;
  process: ChildProcess;
  /** Resumes it if paused, stops it, drops its PostgreSQL database and removes its directory. */
  stop(): Promise<void>;
}

/** The argv of the FerretDB process listening on 127.0.0.1:`port`, read from /proc; undefined when there is none. */
function ferretdbListeningOn(port: number): string[] | undefined {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (!argv[0]?.endsWith('ferretdb')) continue;
    const listen = argv.indexOf('-listen');
    if (listen >= 0 && argv[listen + 1] === `127.0.0.1:${port}`) return argv;
  }
  return undefined;
}

/** Runs a PostgreSQL client program (`createdb`, `dropdb`) against the server `url` names. */
function pgClient(program: string, url: URL, database: string): void {
  const postgres = findPostgres();
  if (!postgres) throw new Error(`${program}: no PostgreSQL client programs on this machine`);
  const args = ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username) || 'postgres', database];
  const result = spawnSync(join(postgres.bin, program), args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${program} ${database}: ${result.stderr.trim()}`);
}

/**
 * Starts the bench's own FerretDB on a free port (see the module comment).
 *
 * @param mongoUri - MONGODB_URI of the bench: the FerretDB there gives the binary and the PostgreSQL server.
 * @param name - Name of the PostgreSQL database created for it (letters, digits, `_`).
 * @throws Error when no FerretDB binary is at hand, or it does not listen within 30 s.
 */
export async function startOwnDatabase(mongoUri: string, name: string): Promise<OwnDatabase> {
  const shared = ferretdbListeningOn(Number(new URL(mongoUri).port || 27017));
  const bin = shared?.[0] ?? join(ROOT, '.data/bin/ferretdb');
  if (!existsSync(bin)) throw new Error(`no FerretDB binary (${bin}): run npm run services first`);
  const urlAt = shared?.indexOf('-postgresql-url') ?? -1;
  const pgUrl = shared && urlAt >= 0 ? new URL(shared[urlAt + 1]) : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'hc-bench-db-'));
  const args = ['-listen', '', '-data', dir];
  if (pgUrl) {
    pgClient('createdb', pgUrl, name);
    const own = new URL(pgUrl);
    own.pathname = `/${name}`;
    args.push('-postgresql-url', own.toString());
  }
  const port = await freePort();
  args[1] = `127.0.0.1:${port}`;
  const log = openSync(join(dir, 'ferretdb.log'), 'a');
  const child = spawn(bin, args, { stdio: ['ignore', log, log] });
  closeSync(log);
  const stop = async (): Promise<void> => {
    // A paused process does not act on SIGTERM before it is resumed.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGCONT');
    await stopChild(child, 5_000);
    if (pgUrl) pgClient('dropdb', pgUrl, name);
    rmSync(dir, { recursive: true, force: true });
  };
  const until = Date.now() + 30_000;
  while (!(await isListening(port))) {
    if (child.exitCode !== null || Date.now() > until) {
      await stop();
      throw new Error(`the bench's own FerretDB did not listen on 127.0.0.1:${port}`);
    }
    await sleep(100);
  }
  const backend = pgUrl ? `FerretDB on PostgreSQL (${pgUrl.host}, database ${name})` : 'FerretDB on SQLite (no FerretDB on PostgreSQL found at MONGODB_URI)';
  return { uri: `mongodb://127.0.0.1:${port}/`, backend, process: child, stop };
}

/**
 * Inserts a project with fresh keys through `connection` (createProject writes through the default connection only).
 *
 * @returns Its UUID and its read-write API key.
 */
export async function insertProject(connection: Connection, name: string, checkLimit: number): Promise<{ projectId: string; apiKey: string }> {
  const projectId = randomUUID();
  const apiKey = `hcw_${randomUUID().replaceAll('-', '').slice(0, 28)}`;
  await connection.model(Project.modelName, Project.schema).create({
    _id: projectId, name, apiKeyHash: hashApiKey(apiKey), apiKeyReadonlyHash: hashApiKey(`hcr_${randomUUID()}`),
    pingKey: randomUUID().replaceAll('-', '').slice(0, 22), badgeKey: randomUUID(), pingLogLimit: 100, checkLimit, created: new Date(),
  });
  return { projectId, apiKey };
}
