import { expect } from 'chai';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Check } from '../../shared/models/check.js';
import { Ping } from '../../shared/models/ping.js';
import { PRUNE_EVERY } from '../../shared/pings/record.js';
import { buildCheck, buildProject } from '../helpers/factories.js';
import { freePort } from '../helpers/services.js';
import { killChildren, startNode, waitForOutput } from '../helpers/processes.js';
import { waitFor } from '../helpers/poll.js';

/** Concurrent ping loops, and how long they run at most (milliseconds). */
const LANES = 20;
const LOAD_MS = 4_000;

/**
 * kill -9 of the web process under load: every ping answered 200 is stored
 * (a 200 is a promise), and once the next ping has come, each check's pings
 * are numbered 1…n_pings without a gap. The web process answers every ping as
 * soon as it is in its Redis journal (PING_ACK_MS=0), so acknowledged pings
 * MongoDB did not have yet are applied by a worker replaying the dead
 * process's journal.
 */
describe('fault: web process killed (SIGKILL) under ping load', function () {
  this.timeout(60_000);
  afterEach(killChildren);

  it('loses no acknowledged ping', async () => {
    const project = await buildProject();
    const checks = await Promise.all(Array.from({ length: 10 }, () => buildCheck(project, { timeout: 3600, grace: 3600 })));
    const port = await freePort();
    const journal = { PING_ACK_MS: '0', PING_JOURNAL_LEASE_MS: '2000' };
    const worker = startNode('workers/main.js', { ...journal, LOG_LEVEL: 'info' });
    const web = startNode('server/main.js', { ...journal, PORT: String(port), LOG_LEVEL: 'info' });
    await Promise.all([waitForOutput(web, 'listening'), waitForOutput(worker, 'workers started')]);
    const acked = new Map<string, number>(checks.map((c) => [c._id, 0]));
    let stop = false;
    const lane = async (i: number): Promise<void> => {
      for (let k = i; !stop; k += LANES) {
        const check = checks[k % checks.length];
        const res = await fetch(`http://127.0.0.1:${port}/ping/${check._id}`).catch(() => null);
        if (res?.status === 200) acked.set(check._id, acked.get(check._id)! + 1);
        if (!res) await sleep(10);
      }
    };
    const lanes = Array.from({ length: LANES }, (_, i) => lane(i));
    await sleep(LOAD_MS / 2);
    web.process.kill('SIGKILL');
    await once(web.process, 'exit');
    await sleep(200);
    stop = true;
    await Promise.all(lanes);

    const total = [...acked.values()].reduce((a, b) => a + b, 0);
    expect(total).to.be.greaterThan(0);
    const short = async (): Promise<string[]> => {
      const stored = await Check.find({ _id: { $in: checks.map((c) => c._id) } }, { nPings: 1 }).lean();
      return stored.filter((c) => c.nPings < acked.get(c._id)!).map((c) => `${c._id}: ${c.nPings} < ${acked.get(c._id)}`);
    };
    await waitFor('every acknowledged ping stored (the worker replays the journal)', async () => (await short()).length === 0, 20_000).catch(
      async () => expect.fail(`acknowledged pings missing: ${(await short()).join(', ')}`),
    );
    await worker.stop();
    // A ping whose request died between storing the ping and moving the check
    // left a claimed number; the next ping to that check adopts it.
    const restarted = startNode('server/main.js', { PORT: String(port), LOG_LEVEL: 'info' });
    await waitForOutput(restarted, 'listening');
    for (const check of checks) expect((await fetch(`http://127.0.0.1:${port}/ping/${check._id}`)).status).to.equal(200);
    await restarted.stop();
    for (const check of checks) {
      const stored = await Check.findById(check._id).lean();
      const ns = (await Ping.find({ checkId: check._id }, { n: 1 }).lean()).map((p) => p.n).sort((a, b) => a - b);
      expect(stored!.nPings, `check ${check._id}`).to.be.above(acked.get(check._id)!);
      // Without a gap up to n_pings; the oldest may be trimmed by the history limit (each 100th ping keeps the newest `ping_log_limit`).
      const first = ns[0];
      const trimmedUpTo = Math.floor(stored!.nPings / PRUNE_EVERY) * PRUNE_EVERY - project.project.pingLogLimit;
      expect(first, `check ${check._id}: oldest ping kept`).to.be.within(1, Math.max(1, trimmedUpTo + 1));
      expect(ns).to.deep.equal(Array.from({ length: stored!.nPings - first + 1 }, (_, i) => first + i));
    }
  });
});
