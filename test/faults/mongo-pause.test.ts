import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import mongoose from 'mongoose';
import { freePort } from '../helpers/services.js';
import { startNode, waitForOutput, type Child } from '../helpers/processes.js';
import { waitFor } from '../helpers/poll.js';
import { startOwnDatabase, type OwnDatabase } from '../helpers/own-database.js';
import { Check } from '../../shared/models/check.js';

/** How long the database is paused (SIGSTOP), and the ping timeout the web process runs with, milliseconds. */
const PAUSE_MS = 15_000;
const PING_TIMEOUT_MS = 3_000;

/**
 * The database stops answering for 15 s (its process is paused with SIGSTOP)
 * under ping load: every client gets a 503 or a 200, every 200 is stored,
 * and the service serves pings again by itself once the database is back.
 * Pings to checks the web process knows are acknowledged from its Redis
 * journal during the pause (after PING_ACK_MS) and reach MongoDB after it.
 */
describe('fault: MongoDB-compatible server paused for 15 s under ping load', function () {
  this.timeout(120_000);
  let db: OwnDatabase | undefined;
  let web: Child | undefined;
  afterEach(async () => {
    await web?.stop('SIGKILL').catch(() => undefined);
    await db?.stop();
    db = web = undefined;
  });

  it('answers 503 or a durable 200, and recovers by itself', async () => {
    db = await startOwnDatabase();
    const uri = `${db.uri}hc_pause`;
    const own = await mongoose.createConnection(uri).asPromise();
    const OwnCheck = own.model(Check.modelName, Check.schema);
    const ids = Array.from({ length: 5 }, (_, i) => `0b5d${i}000-0000-4000-8000-000000000000`);
    const { project } = await createProjectOn(own);
    await OwnCheck.insertMany(ids.map((_id) => ({ _id, projectId: project, badgeKey: _id, created: new Date() })));
    const port = await freePort();
    web = startNode('server/main.js', { PORT: String(port), MONGODB_URI: uri, PING_TIMEOUT_MS: String(PING_TIMEOUT_MS), LOG_LEVEL: 'info' });
    await waitForOutput(web, 'listening', 30_000);

    const acked = new Map(ids.map((id) => [id, 0]));
    const statuses = new Set<number>();
    let paused = false;
    let ackedInPause = 0;
    let stop = false;
    const lanes = ids.map(async (id) => {
      while (!stop) {
        const res = await fetch(`http://127.0.0.1:${port}/ping/${id}`, { signal: AbortSignal.timeout(PAUSE_MS + 10_000) });
        statuses.add(res.status);
        if (res.status === 200) acked.set(id, acked.get(id)! + 1);
        if (res.status === 200 && paused) ackedInPause++;
        await sleep(50);
      }
    });
    await sleep(1000);
    await db.pause();
    paused = true;
    await sleep(PAUSE_MS);
    paused = false;
    db.resume();
    await sleep(3000);
    stop = true;
    await Promise.all(lanes);

    expect([...statuses].filter((s) => s !== 200 && s !== 503)).to.deep.equal([]);
    expect(ackedInPause, 'pings acknowledged from the journal while the database was paused').to.be.above(PAUSE_MS / 1000);
    const res = await fetch(`http://127.0.0.1:${port}/ping/${ids[0]}`);
    expect(res.status).to.equal(200);
    for (const id of ids) {
      const stored = await OwnCheck.findById(id).lean<{ nPings: number }>();
      expect(stored!.nPings, id).to.be.at.least(acked.get(id)! + (id === ids[0] ? 1 : 0));
    }
    await own.close();
  });

  it('answers the status check 503 with Retry-After while the database is paused, by its own deadline, and 200 once it is back', async () => {
    db = await startOwnDatabase();
    const port = await freePort();
    web = startNode('server/main.js', { PORT: String(port), MONGODB_URI: `${db.uri}hc_status`, LOG_LEVEL: 'info' });
    await waitForOutput(web, 'listening', 30_000);
    // Longer than the web process's own status deadline (2 s) and its driver's socket timeout: an answer before it is the web's own.
    const status = async (): Promise<{ status: number; retryAfter: string | null }> => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v3/status/`, { signal: AbortSignal.timeout(60_000) });
      return { status: res.status, retryAfter: res.headers.get('retry-after') };
    };
    expect((await status()).status).to.equal(200);
    // The pause is in effect (every thread of the server stopped) before the probe is sent.
    await db.pause();
    const frozen = await status();
    expect([frozen.status, frozen.retryAfter]).to.deep.equal([503, '5']);
    db.resume();
    await waitFor('the status check to answer 200 again', async () => (await status()).status === 200, 30_000);
  });
});

/** A project in the paused server's database (the run's own models point at the run's database). */
async function createProjectOn(connection: mongoose.Connection): Promise<{ project: string }> {
  const project = 'c0ffee00-0000-4000-8000-000000000000';
  await connection.collection('projects').insertOne({ _id: project as never, name: 'pause' });
  return { project };
}
