import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { locateMongod, startDocumentDB, startEmbeddedMongo } from '../../scripts/embedded-mongo.js';
import { findPostgres, startPostgresCluster } from '../../scripts/local-postgres.js';
import { isListening, startRedisServer, type LocalService } from '../../scripts/local-services.js';
import { FERRETDB_BIN, freePort } from '../helpers/services.js';
import { testContext } from '../helpers/hooks.js';
import { connectQuickly } from '../helpers/own-database.js';
import { stopLeftCluster } from './postgres-cluster.js';

const run = promisify(execFile);

describe('local services for npm start', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hc-local-services-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('isListening tells a port in use from a free one', async () => {
    const used = Number(new URL(testContext().services.redisUrl).port);
    expect(await isListening(used)).to.equal(true);
    expect(await isListening(await freePort())).to.equal(false);
  });

  it('startRedisServer serves Redis on the port with its data in the directory', async () => {
    const port = await freePort();
    const service = await startRedisServer(port, join(dir, 'redis'));
    const client = new Redis(port, '127.0.0.1');
    const configDir = (await client.config('GET', 'dir'));
    client.disconnect();
    await service.stop();
    expect(configDir[1]).to.equal(join(dir, 'redis'));
    expect(await isListening(port)).to.equal(false);
  });

  it('startRedisServer runs Redis with the required settings: AOF every second, no eviction, hz 100', async () => {
    const port = await freePort();
    const service = await startRedisServer(port, join(dir, 'redis'));
    const client = new Redis(port, '127.0.0.1');
    const settings = await Promise.all(['appendonly', 'appendfsync', 'maxmemory-policy', 'hz'].map(async (name) => ((await client.config('GET', name)))[1]));
    client.disconnect();
    await service.stop();
    expect(settings).to.deep.equal(['yes', 'everysec', 'noeviction', '100']);
  });

  it('startRedisServer keeps a write acknowledged a second before a kill -9', async () => {
    const port = await freePort();
    const first = await startRedisServer(port, join(dir, 'redis'));
    const client = new Redis(port, '127.0.0.1');
    await client.set('kept', 'yes');
    const pid = Number(/process_id:(\d+)/.exec(await client.info('server'))?.[1]);
    client.disconnect();
    await sleep(1_500);
    process.kill(pid, 'SIGKILL');
    await first.stop();
    expect(existsSync(join(dir, 'redis', 'appendonlydir'))).to.equal(true);
    const second = await startRedisServer(port, join(dir, 'redis'));
    const again = new Redis(port, '127.0.0.1');
    expect(await again.get('kept')).to.equal('yes');
    again.disconnect();
    await second.stop();
  });

  it('startRedisServer rejects when the program is missing', async () => {
    const error = await startRedisServer(await freePort(), join(dir, 'redis'), 'no-such-redis-server').catch((err: Error) => err);
    expect(error).to.be.instanceOf(Error).with.property('message', 'redis-server: spawn no-such-redis-server ENOENT');
  });
});

describe('local services for npm start: the embedded database, FerretDB 2 on DocumentDB in a private PostgreSQL cluster', function () {
  this.timeout(60_000);
  const postgres = findPostgres();
  let dir: string;
  const running: LocalService[] = [];

  before(async function () {
    if (!postgres) this.skip();
  });
  beforeEach(() => {
    // Searchable by all, so PostgreSQL (run as the postgres user when the tests run as root) reaches its cluster in it.
    dir = mkdtempSync(join(tmpdir(), 'hc-local-pg-'));
    chmodSync(dir, 0o755);
  });
  afterEach(async () => {
    for (const service of running.splice(0)) await service.stop().catch(() => undefined);
    await stopLeftCluster(join(dir, 'pg'));
    rmSync(dir, { recursive: true, force: true });
  });

  const paths = () => ({ mongoDir: join(dir, 'mongo'), ferretdbBin: FERRETDB_BIN, ferretdbDir: join(dir, 'ferretdb'), postgresDir: join(dir, 'pg') });
  /** Runs `sql` on the cluster's `postgres` database with psql; its unaligned, tuples-only output. */
  const psql = async (port: number, sql: string) =>
    (await run(join(postgres!.bin, 'psql'), ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-Atc', sql])).stdout.trim();

  it('startEmbeddedMongo runs FerretDB 2 on DocumentDB when no mongod is at hand, and its data survives a restart', async function () {
    if (await locateMongod()) this.skip();
    const port = await freePort();
    const first = await startEmbeddedMongo(port, paths());
    running.push(first);
    expect(first.server).to.equal(`FerretDB 2.7.0 on DocumentDB, PostgreSQL ${postgres!.version} (no mongod could be had)`);
    expect(first.dataDir).to.equal(join(dir, 'pg'));
    let connection = await connectQuickly(`mongodb://127.0.0.1:${port}/`);
    await connection.getClient().db('hc').collection('kept').insertOne({ _id: 'a' as never, value: 1 });
    await connection.close();
    await running.pop()!.stop();
    expect(await isListening(port)).to.equal(false);
    expect(existsSync(join(dir, 'pg', 'postmaster.pid')), 'the cluster is stopped with the service').to.equal(false);

    running.push(await startEmbeddedMongo(port, paths()));
    connection = await connectQuickly(`mongodb://127.0.0.1:${port}/`);
    const kept = await connection.getClient().db('hc').collection('kept').findOne({ _id: 'a' as never });
    await connection.close();
    expect(kept).to.deep.equal({ _id: 'a', value: 1 });
  });

  it('startDocumentDB stores what PostgreSQL jsonb cannot: a NUL in a string, as MongoDB does', async () => {
    const port = await freePort();
    running.push(await startDocumentDB(port, paths()));
    const connection = await connectQuickly(`mongodb://127.0.0.1:${port}/`);
    await connection.getClient().db('hc').collection('nul').insertOne({ _id: 'a' as never, name: 'a\u0000b' });
    const kept = await connection.getClient().db('hc').collection('nul').findOne({ _id: 'a' as never });
    await connection.close();
    expect(kept).to.deep.equal({ _id: 'a', name: 'a\u0000b' });
  });

  it('startDocumentDB runs the cluster with DocumentDB\'s libraries and its settings file', async () => {
    const port = await freePort();
    const server = await startDocumentDB(port, paths());
    running.push(server);
    const pgPort = Number(new URL(server.postgresUrl!).port);
    expect(await psql(pgPort, "SELECT extname FROM pg_extension WHERE extname LIKE 'documentdb%' ORDER BY 1")).to.equal('documentdb\ndocumentdb_core');
    expect(await psql(pgPort, 'SHOW autovacuum_naptime')).to.equal('5s');
  });

  it('startPostgresCluster listens on 127.0.0.1 only, without a Unix socket, and lets in only the postgres role from 127.0.0.1', async () => {
    const cluster = await startPostgresCluster(join(dir, 'pg'), postgres!);
    running.push(cluster);
    expect(cluster.url).to.equal(`postgres://postgres@127.0.0.1:${cluster.port}/postgres`);
    expect(await psql(cluster.port, 'SHOW listen_addresses')).to.equal('127.0.0.1');
    expect(await psql(cluster.port, 'SHOW unix_socket_directories')).to.equal('');
    expect(await psql(cluster.port, 'SELECT type, database, user_name, address, auth_method FROM pg_hba_file_rules')).to.equal('host|{all}|{postgres}|127.0.0.1|trust');
  });

  it('startPostgresCluster stops and starts again a cluster a killed start left running', async () => {
    const left = await startPostgresCluster(join(dir, 'pg'), postgres!);
    const leftPid = Number(readFileSync(join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const cluster = await startPostgresCluster(join(dir, 'pg'), postgres!);
    running.push(cluster);
    expect(await isListening(left.port)).to.equal(cluster.port === left.port);
    expect(Number(readFileSync(join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0])).to.not.equal(leftPid);
    expect(await psql(cluster.port, 'SELECT 1')).to.equal('1');
  });

  it('as root, startPostgresCluster makes the cluster in the postgres user\'s home when that user cannot reach the directory, and finds it again', async function () {
    if (process.getuid?.() !== 0) this.skip();
    chmodSync(dir, 0o700);
    const first = await startPostgresCluster(join(dir, 'pg'), postgres!);
    running.push(first);
    expect(lstatSync(join(dir, 'pg')).isSymbolicLink()).to.equal(true);
    expect(first.dataDir).to.equal(readlinkSync(join(dir, 'pg')));
    expect(first.dataDir).to.match(/\/hc-monitor-[^/]+\/pg$/);
    await psql(first.port, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)');
    await running.pop()!.stop();

    const again = await startPostgresCluster(join(dir, 'pg'), postgres!);
    running.push(again);
    expect(again.dataDir).to.equal(first.dataDir);
    expect(await psql(again.port, 'SELECT n FROM kept')).to.equal('7');
  });
});
