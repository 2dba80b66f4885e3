import { expect } from 'chai';
import { freePort } from '../helpers/services.js';
import { waitFor } from '../helpers/poll.js';
import { killChildren, startNode, waitForOutput } from '../helpers/processes.js';

/** Longest a web process may take to start, milliseconds: generous, as a busy machine's CI runs several at once. */
const START_MS = 45_000;

describe('web process (dist/server/main.js)', function () {
  this.timeout(START_MS + 15_000);
  afterEach(killChildren);

  it('serves the API on PORT', async () => {
    const port = await freePort();
    const web = startNode('server/main.js', { PORT: String(port) });
    await waitForOutput(web, '"msg":"listening"', START_MS);
    const res = await waitFor('status OK', async () => {
      const r = await fetch(`http://127.0.0.1:${port}/api/v3/status/`);
      return r.status === 200 ? r : undefined;
    });
    expect(await res.text()).to.equal('OK');
    await web.stop();
  });

  it('exits 0 within 10 s of SIGTERM', async () => {
    const port = await freePort();
    const web = startNode('server/main.js', { PORT: String(port) });
    await waitForOutput(web, '"msg":"listening"', START_MS);
    expect(await web.stop('SIGTERM')).to.equal(0);
    expect(web.output()).to.include('"msg":"shut down"');
  });
});
