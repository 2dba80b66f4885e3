/**
 * A throwaway PostgreSQL cluster for the FerretDB PostgreSQL-backend tests: a
 * temporary data directory, a free port on 127.0.0.1, no fsync. As root the
 * cluster runs as the `postgres` user (PostgreSQL refuses root), as
 * scripts/services.sh does.
 */
import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../helpers/services.js';

const run = promisify(execFile);

/** A running cluster with a database `ferretdb`. */
export interface Postgres {
  /** postgres:// URL of the `ferretdb` database. */
  url: string;
  /** Runs `sql` with psql and returns its unaligned, tuples-only output. */
  psql(sql: string): Promise<string>;
  /** Stops the cluster (immediate) and removes its directory. */
  stop(): Promise<void>;
}

/** The newest installed PostgreSQL server's bin directory (Debian layout). */
function binDir(): string {
  const versions = readdirSync('/usr/lib/postgresql', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  const newest = versions.sort((a, b) => Number(a) - Number(b)).pop();
  if (!newest) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql)');
  return `/usr/lib/postgresql/${newest}/bin`;
}

/**
 * Creates and starts a cluster.
 *
 * @throws Error when PostgreSQL is not installed or does not start.
 */
export async function startPostgres(): Promise<Postgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'hc-postgres-'));
  const asRoot = process.getuid?.() === 0;
  const as = (program: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', `${bin}/${program}`, ...args]) : run(`${bin}/${program}`, args));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    chownSync(dir, Number(stdout.trim()), -1);
  }
  const port = await freePort();
  const data = join(dir, 'data');
  await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres']);
  await as('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', 'start', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`]);
  const connect = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres'];
  await run(`${bin}/createdb`, [...connect, 'ferretdb']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/ferretdb`,
    psql: async (sql) => (await run(`${bin}/psql`, [...connect, '-d', 'ferretdb', '-v', 'ON_ERROR_STOP=1', '-Atc', sql])).stdout,
    stop: async () => {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
