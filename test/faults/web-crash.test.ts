import { expect } from 'chai';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Check } from '../../shared/models/check.js';
import { Ping } from '../../shared/models/ping.js';
import { buildCheck, buildProject } from '../helpers/factories.js';
import { freePort } from '../helpers/services.js';
import { startNode, waitForOutput } from '../helpers/processes.js';

/** Concurrent ping loops, and how long they run at most (milliseconds). */
const LANES = 20;
const LOAD_MS = 4_000;

/**
 * kill -9 of the web process under load: every ping answered 200 is stored
 * (a 200 is a promise), and once the next ping has come, each check's pings
 * are numbered 1…n_pings without a gap.
 */
describe('fault: web process killed (SIGKILL) under ping load', function () {
  this.timeout(60_000);

  it('loses no acknowledged ping', async () => {
    const project = await buildProject();
    const checks = await Promise.all(Array.from({ length: 10 }, () => buildCheck(project, { timeout: 3600, grace: 3600 })));
    const port = await freePort();
    const web = startNode('server/main.js', { PORT: String(port), LOG_LEVEL: 'info' });
    await waitForOutput(web, 'listening');
    const acked = new Map<string, number>(checks.map((c) => [c._id, 0]));
    let stop = false;
    const lane = async (i: number): Promise<void> => {
      for (let k = i; !stop; k += LANES) {
        const check = checks[k % checks.length]!;
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
    for (const check of checks) {
      const stored = await Check.findById(check._id).lean();
      expect(stored!.nPings, `check ${check._id}`).to.be.at.least(acked.get(check._id)!);
    }
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
      expect(ns).to.deep.equal(Array.from({ length: stored!.nPings }, (_, i) => i + 1));
    }
  });
});
