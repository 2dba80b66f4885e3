import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type mongoose from 'mongoose';
import { waitFor } from '../../helpers/poll.js';
import { connectQuickly, startFerret, type FerretServer } from './server.js';

/** What a restarted server must do: answer, create a new database, and serve `db`. */
async function expectServing(uri: string, db: string): Promise<mongoose.Connection> {
  const connection = await connectQuickly(uri);
  const client = connection.getClient();
  await client.db(`hc_new_${Date.now()}`).collection('checks').insertOne({ name: 'new' });
  await client.db(db).collection('checks').countDocuments({});
  return connection;
}

describe('embedded FerretDB under kill -9 (scripts/ferretdb)', function () {
  this.timeout(90_000);
  let dir: string;
  let server: FerretServer | undefined;
  let connection: mongoose.Connection | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hc-ferretdb-'));
  });
  afterEach(async () => {
    await connection?.close();
    await server?.kill();
    connection = server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts with a database file that was created but never initialised, and uses it', async () => {
    // What a kill -9 leaves between FerretDB opening a new database's file and creating its catalogue.
    writeFileSync(join(dir, 'hc_half.sqlite'), '');
    server = await startFerret(dir);
    connection = await expectServing(server.uri, 'hc_half');
    await connection.getClient().db('hc_half').collection('checks').insertOne({ name: 'kept' });
    expect(await connection.getClient().db('hc_half').collection('checks').countDocuments({ name: 'kept' })).to.equal(1);
    expect(server.output()).to.include('creating the catalogue of a database left uninitialised');
  });

  it('restarts after a kill -9 amid creating databases, collections and indexes, keeping every acknowledged document', async () => {
    const acknowledged: string[] = [];
    for (let round = 0; round < 6; round++) {
      server = await startFerret(dir);
      connection = await connectQuickly(server.uri);
      const client = connection.getClient();
      const creating = (async () => {
        for (let i = 0; ; i++) {
          const db = client.db(`hc_round${round}_${i % 3}`);
          await db.collection(`flips${i}`).createIndex({ check: 1, n: 1 }, { unique: true });
          await db.collection(`flips${i}`).insertOne({ check: i, n: 1 });
          acknowledged.push(`${db.databaseName}.flips${i}`);
        }
      })().catch(() => undefined);
      await sleep(150 + round * 120);
      await server.kill();
      await creating;
      await connection.close().catch(() => undefined);
      connection = undefined;
    }
    server = await startFerret(dir);
    connection = await expectServing(server.uri, 'hc_round0_0');
    const client = connection.getClient();
    for (const name of acknowledged) {
      const [db, collection] = name.split('.') as [string, string];
      expect(await client.db(db).collection(collection).countDocuments({}), name).to.equal(1);
    }
    // Collections and indexes a kill cut off halfway can be created again.
    for (let i = 0; i < 40; i++) {
      const flips = client.db(`hc_round5_${i % 3}`).collection(`flips${i}`);
      await flips.createIndex({ check: 1, n: 1 }, { unique: true });
      await flips.insertOne({ check: i, n: 2 });
    }
    expect(acknowledged.length).to.be.greaterThan(0);
  });

  it('keeps answering, new databases included, after a client is killed mid-request, and restarts after a kill -9', async () => {
    server = await startFerret(dir);
    const script = fileURLToPath(new URL('./load-client.js', import.meta.url));
    const client = spawn(process.execPath, [script, server.uri], { stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    client.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    client.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    try {
      await waitFor('the load client to run', async () => printed.includes('running'), 20_000);
      await sleep(1_500);
    } finally {
      client.kill('SIGKILL');
    }
    connection = await expectServing(server.uri, 'hc_load');
    const pings = connection.getClient().db('hc_load').collection('pings');
    // Requests the killed client had sent may still land; wait until the count holds still for 500 ms.
    let stored = -1;
    await waitFor('in-flight requests to settle', async () => {
      const before = stored;
      await sleep(500);
      stored = await pings.countDocuments({});
      return stored === before;
    }, 20_000);
    expect(stored).to.be.greaterThan(0);
    await connection.close();
    await server.kill();
    server = await startFerret(dir);
    connection = await expectServing(server.uri, 'hc_load');
    expect(await connection.getClient().db('hc_load').collection('pings').countDocuments({})).to.equal(stored);
  });
});
