import { expect } from 'chai';
import { buildCheck, buildProject } from '../helpers/factories.js';
import { freePort } from '../helpers/services.js';
import { killChildren, startNode, waitForOutput } from '../helpers/processes.js';
import { downFlips, wentDown } from '../workers/support.js';

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

  it('runs the deadline worker in the same process', async () => {
    const project = await buildProject();
    const lastPing = new Date(Date.now() - 10_000);
    const check = await buildCheck(project, { status: 'up', timeout: 1, grace: 1, lastPing, deadline: new Date(lastPing.getTime() + 2_000) });
    const { app } = await start();
    await wentDown(check._id);
    await app.stop();
    expect(await downFlips(check._id)).to.have.length(1);
  });

  it('exits 0 within 10 s of SIGTERM', async () => {
    const { app } = await start();
    expect(await app.stop('SIGTERM')).to.equal(0);
    expect(app.output()).to.include('"msg":"shut down"');
  });
});
