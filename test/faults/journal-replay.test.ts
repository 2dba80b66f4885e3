import { expect } from 'chai';
import { once } from 'node:events';
import mongoose from 'mongoose';
import { freePort } from '../helpers/services.js';
import { waitFor } from '../helpers/poll.js';
import { startNode, waitForOutput, type Child } from '../helpers/processes.js';
import { startOwnDatabase, type OwnDatabase } from '../helpers/own-database.js';
import { Check } from '../../shared/models/check.js';
import { Ping } from '../../shared/models/ping.js';

/** Pings sent to each check while the database is paused. */
const PINGS_IN_PAUSE = 4;

/**
 * The strictest case of "a 200 is a promise": pings acknowledged while the
 * database does not answer (so only the web process's Redis journal holds
 * them), then a kill -9 of that web process, then the database back. A worker
 * replays the dead process's journal: every acknowledged ping is stored
 * exactly once, numbered without a gap.
 */
describe('fault: web process killed (SIGKILL) while its acknowledged pings are only in its journal', function () {
  this.timeout(120_000);
  let db: OwnDatabase | undefined;
  let children: Child[] = [];
  afterEach(async () => {
    for (const child of children) child.process.kill('SIGKILL');
    await db?.stop();
    db = undefined;
    children = [];
  });

  it('stores every acknowledged ping exactly once after a worker replays the journal', async () => {
    db = await startOwnDatabase();
    const uri = `${db.uri}hc_journal`;
    const own = await mongoose.createConnection(uri).asPromise();
    const OwnCheck = own.model(Check.modelName, Check.schema);
    const OwnPing = own.model(Ping.modelName, Ping.schema);
    const ids = Array.from({ length: 5 }, (_, i) => `0b5d${i}000-0000-4000-8000-00000000000${i}`);
    await own.collection('projects').insertOne({ _id: 'c0ffee00-0000-4000-8000-000000000001' as never, name: 'journal' });
    await OwnCheck.insertMany(ids.map((_id) => ({ _id, projectId: 'c0ffee00-0000-4000-8000-000000000001', badgeKey: _id, created: new Date() })));
    const port = await freePort();
    // Its own queue prefix: a worker left by another test (on another database) must not take this journal.
    const env = { MONGODB_URI: uri, PING_ACK_MS: '200', PING_JOURNAL_LEASE_MS: '2000', QUEUE_PREFIX: `hc_journal_${process.pid}` };
    const web = startNode('server/main.js', { ...env, PORT: String(port) });
    const worker = startNode('workers/main.js', env);
    children = [web, worker];
    await Promise.all([waitForOutput(web, 'listening', 30_000), waitForOutput(worker, 'workers started', 30_000)]);
    const ping = async (id: string): Promise<number> => (await fetch(`http://127.0.0.1:${port}/ping/${id}`)).status;
    for (const id of ids) expect(await ping(id)).to.equal(200);

    await db.pause();
    const inPause = await Promise.all(ids.map(async (id) => {
      const statuses: number[] = [];
      for (let i = 0; i < PINGS_IN_PAUSE; i++) statuses.push(await ping(id));
      return statuses;
    }));
    expect(inPause.flat()).to.deep.equal(new Array(ids.length * PINGS_IN_PAUSE).fill(200));
    web.process.kill('SIGKILL');
    await once(web.process, 'exit');
    db.resume();

    const expected = 1 + PINGS_IN_PAUSE;
    await waitFor('every acknowledged ping stored', async () => {
      const checks = await OwnCheck.find({ _id: { $in: ids } }, { nPings: 1 }).lean<{ nPings: number }[]>();
      return checks.length === ids.length && checks.every((c) => c.nPings >= expected);
    }, 30_000);
    await waitForOutput(worker, 'replayed the ping journal of a stopped web process', 10_000);
    for (const id of ids) {
      const check = await OwnCheck.findById(id).lean<{ nPings: number }>();
      const ns = (await OwnPing.find({ checkId: id }, { n: 1 }).lean<{ n: number }[]>()).map((p) => p.n).sort((a, b) => a - b);
      expect(check!.nPings, id).to.equal(expected);
      expect(ns, id).to.deep.equal(Array.from({ length: expected }, (_, i) => i + 1));
    }
    await own.close();
  });
});
