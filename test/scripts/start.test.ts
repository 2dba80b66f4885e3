import { expect } from 'chai';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateMongod } from '../../scripts/embedded-mongo.js';
import { findPostgres } from '../../scripts/local-postgres.js';
import { isListening } from '../../scripts/local-services.js';
import { buildCheck, buildProject } from '../helpers/factories.js';
import { freePort } from '../helpers/services.js';
import { testContext } from '../helpers/hooks.js';
import { killChildren, startNode, waitForOutput, type Child } from '../helpers/processes.js';
import { downFlips, wentDown } from '../workers/support.js';
import { jsonOf, runCli } from './hc-admin/run-cli.js';
import { stopLeftCluster } from './postgres-cluster.js';

describe('npm start (dist/scripts/start.js)', () => {
  afterEach(killChildren);

  const start = async () => {
    const port = await freePort();
    const app = startNode('scripts/start.js', { PORT: String(port) });
    await waitForOutput(app, '"msg":"listening"');
    return { app, origin: `http://127.0.0.1:${port}` };
  };

  it('serves the API', async () => {
    const { app, origin } = await start();
    const res = await fetch(`${origin}/api/v3/status/`);
    expect(res.status).to.equal(200);
    await app.stop();
  });

  it('says in one line that it uses the MongoDB already listening where MONGODB_URI names, starting none', async () => {
    const { app } = await start();
    await app.stop();
    const { host, pathname } = new URL(testContext().services.mongoUri);
    const lines = app.output().split('\n').filter((line) => line.includes('"msg":"database: '));
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).to.deep.equal([
      `database: ${host}${pathname} (from MONGODB_URI), already listening; not started here`,
    ]);
  });

  it('runs the deadline worker in the same process', async () => {
    const project = await buildProject();
    const lastPing = new Date(Date.now() - 10_000);
    const check = await buildCheck(project, { status: 'up', timeout: 1, grace: 1, lastPing, deadline: new Date(lastPing.getTime() + 2_000) });
    const { app } = await start();
    await wentDown(check._id);
    await app.stop();
    expect(await downFlips(check._id)).to.have.length(1);
  });

  it('with its web port in use: says so in one line on stderr and exits 1, starting nothing', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      const app = startNode('scripts/start.js', { PORT: String(port) });
      const [code] = (await once(app.process, 'exit')) as [number | null];
      expect(code).to.equal(1);
      expect(app.output()).to.equal(`npm start: port ${port} is in use; set PORT to a free one\n`);
    } finally {
      busy.close();
    }
  });

  it('exits 0 within 10 s of SIGTERM', async () => {
    const { app } = await start();
    expect(await app.stop('SIGTERM')).to.equal(0);
    expect(app.output()).to.include('"msg":"shut down"');
  });
});

describe('npm start with nothing running on its MongoDB and Redis ports: the embedded default', function () {
  this.timeout(120_000);
  let dir: string;
  let ports: { http: number; smtp: number; mongo: number; redis: number };
  let app: Child | undefined;

  beforeEach(async () => {
    // Searchable by all, so PostgreSQL (run as the postgres user when the tests run as root) reaches its cluster in it.
    dir = mkdtempSync(join(tmpdir(), 'hc-start-default-'));
    chmodSync(dir, 0o755);
    ports = { http: await freePort(), smtp: await freePort(), mongo: await freePort(), redis: await freePort() };
  });
  afterEach(async () => {
    // A failed test's npm start: its own shutdown stops what it started (a SIGKILL would leave its servers running).
    await app?.stop('SIGTERM').catch(() => undefined);
    app = undefined;
    killChildren();
    await stopLeftCluster(join(dir, 'documentdb'));
    rmSync(dir, { recursive: true, force: true });
  });

  /** `npm start` with its data in `dir` (LOCAL_DATA_DIR) and every port its own, as a user's first `npm start` has them. */
  const start = async () => {
    const child = startNode('scripts/start.js', {
      PORT: String(ports.http), SMTP_PORT: String(ports.smtp), SMTP_HOST: '127.0.0.1', LOCAL_DATA_DIR: dir,
      MONGODB_URI: `mongodb://127.0.0.1:${ports.mongo}/hc`, REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
    });
    await waitForOutput(child, '"msg":"listening"', 90_000);
    return child;
  };

  /** The line the default must print here: mongod when mongodb-memory-server has one, else FerretDB 2 on DocumentDB. */
  const expectedLine = async (): Promise<RegExp> => {
    const at = `at 127\\.0\\.0\\.1:${ports.mongo}/hc, data in ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    if (await locateMongod()) return new RegExp(`^database: mongod \\S+ \\(mongodb-memory-server\\) ${at}/mongo$`);
    const postgres = findPostgres('15');
    return new RegExp(`^database: FerretDB 2\\.7\\.0 on DocumentDB, PostgreSQL ${postgres?.version.replace('.', '\\.')} \\(no mongod could be had\\) ${at}/documentdb$`);
  };

  const databaseLines = (output: string): string[] =>
    output.split('\n').filter((line) => line.includes('"msg":"database: ')).map((line) => (JSON.parse(line) as { msg: string }).msg);

  it('says in one line which server it runs (with no mongod to be had, as here: FerretDB 2 on DocumentDB in a private PostgreSQL cluster)', async () => {
    app = await start();
    const lines = databaseLines(app.output());
    expect(await app.stop('SIGTERM')).to.equal(0);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(await expectedLine());
    if (!(await locateMongod()) && findPostgres()) {
      // The cluster is made once, and stopped with the process.
      expect(existsSync(join(dir, 'documentdb', 'PG_VERSION'))).to.equal(true);
      expect(existsSync(join(dir, 'documentdb', 'postmaster.pid'))).to.equal(false);
    }
  });

  it('takes a ping, and its data survives a restart', async () => {
    const origin = `http://127.0.0.1:${ports.http}`;
    app = await start();
    const created = await runCli(['project', 'create', '--name', 'start-default'], { MONGODB_URI: `mongodb://127.0.0.1:${ports.mongo}/hc` });
    const apiKey = (jsonOf(created) as { api_key: string }).api_key;
    const res = await fetch(`${origin}/api/v3/checks/`, { method: 'POST', headers: { 'X-Api-Key': apiKey }, body: JSON.stringify({ name: 'kept', timeout: 3600 }) });
    expect(res.status).to.equal(201);
    const uuid = ((await res.json()) as { ping_url: string }).ping_url.split('/').pop()!;
    expect(await (await fetch(`${origin}/ping/${uuid}`)).text()).to.equal('OK');
    const nPings = async () => ((await (await fetch(`${origin}/api/v3/checks/${uuid}`, { headers: { 'X-Api-Key': apiKey } })).json()) as { n_pings: number }).n_pings;
    expect(await nPings()).to.equal(1);
    expect(await app.stop('SIGTERM')).to.equal(0);
    expect(await isListening(ports.mongo)).to.equal(false);

    app = await start();
    expect(await nPings()).to.equal(1);
    expect(await (await fetch(`${origin}/ping/${uuid}`)).text()).to.equal('OK');
    expect(await nPings()).to.equal(2);
    expect(await app.stop('SIGTERM')).to.equal(0);
  });
});

