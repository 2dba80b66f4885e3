import { expect } from 'chai';
import { buildCheck, buildProject } from '../helpers/factories.js';
import { freePort } from '../helpers/services.js';
import { killChildren, startNode, waitForOutput } from '../helpers/processes.js';
import { waitFor } from '../helpers/poll.js';
import { storedCheck, storedPings } from '../helpers/pings.js';

/**
 * Deferred pings (shared/pings/journal.ts) with real processes: a web process answering at once (PING_ACK_MS=0) applies nothing itself; its
 * journal is bounded (PING_JOURNAL_MAX: past it a ping gets 503 with Retry-After, never a 200 then dropped), and a worker applies what it holds,
 * in order, after which the web process takes pings again.
 */
describe('fault: deferred pings with no worker running, past the journal bound', function () {
  this.timeout(60_000);
  afterEach(killChildren);

  it('answers 503 with Retry-After past the bound, and a worker started later applies every acknowledged ping in order', async () => {
    const project = await buildProject();
    const check = await buildCheck(project, { timeout: 3600, grace: 3600 });
    const port = await freePort();
    const env = { PING_ACK_MS: '0', PING_JOURNAL_MAX: '5', LOG_LEVEL: 'info' };
    const web = startNode('server/main.js', { ...env, PORT: String(port) });
    await waitForOutput(web, 'listening');
    const ping = (signal: string) => fetch(`http://127.0.0.1:${port}/ping/${check._id}${signal}`);

    const signals = ['/start', '', '/fail', '/log', '/start'];
    for (const signal of signals) expect((await ping(signal)).status).to.equal(200);
    const refused = await ping('');
    expect([refused.status, refused.headers.get('retry-after'), await refused.text()]).to.deep.equal([503, '5', 'service unavailable']);
    // Nothing applies a deferred ping but a worker.
    expect((await storedCheck(check._id)).nPings).to.equal(0);

    const worker = startNode('workers/main.js', env);
    await waitForOutput(worker, 'workers started');
    // The check counts its pings in one write, then their documents are inserted: wait for the documents.
    await waitFor('every acknowledged ping stored', async () => (await storedPings(check._id)).length === signals.length, 20_000);
    expect((await storedCheck(check._id)).nPings).to.equal(signals.length);
    expect((await storedPings(check._id)).map((p) => [p.n, p.kind])).to.deep.equal([[1, 'start'], [2, 'success'], [3, 'fail'], [4, 'log'], [5, 'start']]);
    expect((await storedCheck(check._id)).status).to.equal('down');

    // The web process counts its backlog down and takes pings again.
    await waitFor('pings taken again', async () => (await ping('')).status === 200, 5_000);
    await waitFor('the last ping stored', async () => (await storedPings(check._id)).length === signals.length + 1, 10_000);
    expect(await storedCheck(check._id)).to.include({ status: 'up' });
    await Promise.all([web.stop(), worker.stop()]);
  });
});
