import { expect } from 'chai';
import { freePort } from '../helpers/services.js';
import { killChildren, startNode, waitForOutput } from '../helpers/processes.js';

describe('web process (dist/server/main.js): process metrics', () => {
  afterEach(killChildren);

  it('serves its metrics, queue depths included, at METRICS_PATH to the METRICS_TOKEN', async () => {
    const port = await freePort();
    const web = startNode('server/main.js', { PORT: String(port), METRICS_TOKEN: 'scrape-token' });
    await waitForOutput(web, '"msg":"listening"');
    const denied = await fetch(`http://127.0.0.1:${port}/metrics`);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { Authorization: 'Bearer scrape-token' } });
    const text = await res.text();
    await web.stop();
    expect([denied.status, res.status]).to.deep.equal([401, 200]);
    for (const queue of ['deadlines', 'flips', 'sweep', 'notify']) expect(text).to.include(`hc_queue_jobs{queue="${queue}",state="waiting"}`);
  });
});
