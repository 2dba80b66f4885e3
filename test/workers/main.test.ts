import { expect } from 'chai';
import { buildCheck, buildProject } from '../helpers/factories.js';
import { killChildren, startNode, waitForOutput } from '../helpers/processes.js';
import { downFlips, wentDown } from './support.js';

describe('worker process (dist/workers/main.js)', () => {
  afterEach(killChildren);

  it('takes an overdue check down', async () => {
    const project = await buildProject();
    const lastPing = new Date(Date.now() - 10_000);
    const check = await buildCheck(project, { status: 'up', timeout: 1, grace: 1, lastPing, deadline: new Date(lastPing.getTime() + 2_000) });
    const worker = startNode('workers/main.js');
    await wentDown(check._id, 10_000);
    await worker.stop();
    expect(await downFlips(check._id)).to.have.length(1);
  });

  it('exits 0 within 10 s of SIGTERM', async () => {
    const worker = startNode('workers/main.js');
    await waitForOutput(worker, 'workers started');
    expect(await worker.stop('SIGTERM')).to.equal(0);
    expect(worker.output()).to.include('"msg":"shut down"');
  });
});
