import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import mongoose from 'mongoose';
import { freePort } from '../helpers/services.js';
import { waitFor } from '../helpers/poll.js';
import { killChildren, startNode, waitForOutput } from '../helpers/processes.js';
import { startOwnDatabase, type OwnDatabase } from '../helpers/own-database.js';
import { Check } from '../../shared/models/check.js';

/** Concurrent clients, checks they ping, and how long the database is paused (SIGSTOP), milliseconds. */
const CLIENTS = 200;
const CHECKS = 20;
const PAUSE_MS = 10_000;
/** The web process's memory bound under any load (docs/operations.md, "Failure and recovery"), megabytes. */
const MAX_RSS_MB = 400;

/** Peak resident memory of a process (VmHWM), megabytes. */
function peakRssMb(pid: number): number {
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/**
 * 200 clients pinging while the database does not answer for 10 s: the web process defers what it cannot apply (shared/pings/journal.ts), so its
 * memory stays bounded, and every acknowledged ping reaches MongoDB once the database is back, applied by the worker in bulk.
 */
describe('fault: a 200-client burst while the database is paused', function () {
  this.timeout(180_000);
  let db: OwnDatabase | undefined;
  afterEach(async () => {
    killChildren();
    await db?.stop();
    db = undefined;
  });

  it('keeps the web process under 400 MB and stores every acknowledged ping', async () => {
    db = await startOwnDatabase();
    const uri = `${db.uri}hc_burst`;
    const own = await mongoose.createConnection(uri).asPromise();
    const OwnCheck = own.model(Check.modelName, Check.schema);
    const project = 'c0ffee00-0000-4000-8000-00000000000b';
    await own.collection('projects').insertOne({ _id: project as never, name: 'burst' });
    const ids = Array.from({ length: CHECKS }, (_, i) => `0b5d0000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    await OwnCheck.insertMany(ids.map((_id) => ({ _id, projectId: project, badgeKey: _id, created: new Date() })));
    const port = await freePort();
    const env = { MONGODB_URI: uri, QUEUE_PREFIX: `hc_burst_${process.pid}`, LOG_LEVEL: 'info' };
    const web = startNode('server/main.js', { ...env, PORT: String(port) });
    const worker = startNode('workers/main.js', env);
    await Promise.all([waitForOutput(web, 'listening', 30_000), waitForOutput(worker, 'workers started', 30_000)]);
    // Every check known to the web process before the pause, as checks pinged regularly are.
    for (const id of ids) expect((await fetch(`http://127.0.0.1:${port}/ping/${id}`)).status).to.equal(200);

    const acked = new Map(ids.map((id) => [id, 1]));
    const statuses = new Set<number>();
    let stop = false;
    const clients = Array.from({ length: CLIENTS }, async (_, i) => {
      for (let k = i; !stop; k += CLIENTS) {
        const id = ids[k % CHECKS];
        const res = await fetch(`http://127.0.0.1:${port}/ping/${id}`, { signal: AbortSignal.timeout(30_000) }).catch(() => null);
        if (!res) continue;
        statuses.add(res.status);
        if (res.status === 200) acked.set(id, acked.get(id)! + 1);
      }
    });
    await db.pause();
    await sleep(PAUSE_MS);
    db.resume();
    stop = true;
    await Promise.all(clients);

    expect([...statuses].filter((s) => s !== 200 && s !== 503)).to.deep.equal([]);
    const total = [...acked.values()].reduce((a, b) => a + b, 0);
    expect(total, 'pings acknowledged').to.be.above(CHECKS * 10);
    expect(peakRssMb(web.process.pid!), 'peak RSS of the web process, MB').to.be.below(MAX_RSS_MB);
    const short = async (): Promise<string[]> => {
      const stored = await OwnCheck.find({ _id: { $in: ids } }, { nPings: 1 }).lean<{ _id: string; nPings: number }[]>();
      return stored.filter((c) => c.nPings < acked.get(c._id)!).map((c) => `${c._id}: ${c.nPings} < ${acked.get(c._id)}`);
    };
    await waitFor('every acknowledged ping stored', async () => (await short()).length === 0, 120_000).catch(
      async () => expect.fail(`acknowledged pings missing: ${(await short()).join(', ')}`),
    );
    await own.close();
  });
});
