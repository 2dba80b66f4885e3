/**
 * A database process of the bench's own, to pause (SIGSTOP) without touching a shared one: the embedded database
 * (FerretDB 2 on DocumentDB) in a cluster of its own, in a temporary directory removed at the end.
 * And a project inserted through a connection of the bench's own (a database other than the bench's main one).
 * Tooling for `npm run bench` only.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Connection } from 'mongoose';
import { Project } from '../../shared/models/project.js';
import { hashApiKey } from '../../shared/services/projects.js';
import { startDocumentDB } from '../embedded-mongo.js';
import { freePort } from '../local-services.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A started database process. */
export interface OwnDatabase {
  /** `mongodb://127.0.0.1:<port>/` (a database name is to be added). */
  uri: string;
  /** What it is, for the report: `FerretDB 2.7.0 on DocumentDB, PostgreSQL 15.20`. */
  backend: string;
  /** Pauses (SIGSTOP) or resumes (SIGCONT) its FerretDB. */
  signal(name: 'SIGSTOP' | 'SIGCONT'): void;
  /** Resumes it if paused, stops it and its cluster, and removes their directory. */
  stop(): Promise<void>;
}

/**
 * Starts the bench's own embedded database (FerretDB 2 on DocumentDB, a cluster of its own) on a free port, data in a temporary directory.
 *
 * @throws Error when the embedded database is not built (scripts/provision.sh) or does not start.
 */
export async function startOwnDatabase(): Promise<OwnDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'hc-bench-db-'));
  // PostgreSQL runs as the postgres user when the bench runs as root; it must reach its cluster.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const paths = { ferretdbBin: join(ROOT, '.data/bin/ferretdb'), ferretdbDir: join(dir, 'ferretdb'), postgresDir: join(dir, 'pg') };
  const server = await startDocumentDB(port, paths).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    uri: `mongodb://127.0.0.1:${port}/`,
    backend: server.server,
    signal: (name) => void process.kill(server.pid!, name),
    stop: async () => {
      process.kill(server.pid!, 'SIGCONT');
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
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
