import { expect } from 'chai';
import { freePort } from '../helpers/services.js';
import { killChildren, startNode, waitForOutput } from '../helpers/processes.js';

describe('worker process (dist/workers/main.js): metrics listener', () => {
  afterEach(killChildren);

  it('serves its metrics on WORKER_METRICS_PORT to the admin credential', async () => {
    const port = await freePort();
    const worker = startNode('workers/main.js', { WORKER_METRICS_PORT: String(port), ADMIN_USER: 'ops', ADMIN_PASSWORD: 'secret' });
    await waitForOutput(worker, '"msg":"metrics listening"');
    const url = `http://127.0.0.1:${port}/metrics`;
    const denied = await fetch(url);
    const res = await fetch(url, { headers: { Authorization: `Basic ${Buffer.from('ops:secret').toString('base64')}` } });
    const text = await res.text();
    expect(await worker.stop('SIGTERM')).to.equal(0);
    expect([denied.status, res.status]).to.deep.equal([401, 200]);
    expect(text).to.include('hc_queue_jobs{queue="sweep",state="delayed"}');
    expect(text).to.include('# TYPE hc_alert_latency_seconds histogram');
  });

  it('opens no metrics port by default', async () => {
    const worker = startNode('workers/main.js');
    await waitForOutput(worker, 'workers started');
    expect(await worker.stop('SIGTERM')).to.equal(0);
    expect(worker.output()).not.to.include('metrics listening');
  });
});
