import { expect } from 'chai';
import { startWorkerMetrics } from '../../shared/metrics-listener.js';
import { loadConfig } from '../../shared/config.js';
import { testContext } from '../helpers/hooks.js';

const OPS = loadConfig({ WORKER_METRICS_PORT: '0', WORKER_METRICS_HOST: '127.0.0.1', METRICS_TOKEN: 'scrape-token', ADMIN_USER: 'ops', ADMIN_PASSWORD: 'secret' }).ops;

describe('shared/metrics-listener: the worker’s metrics listener', () => {
  it('opens no listener when WORKER_METRICS_PORT is unset', async () => {
    const metrics = await startWorkerMetrics(testContext().redis, loadConfig({}).ops);
    expect(metrics.port).to.equal(null);
    await metrics.close();
  });

  it('serves the metrics to the token or the admin credential, 401 otherwise', async () => {
    const metrics = await startWorkerMetrics(testContext().redis, OPS);
    try {
      const url = `http://127.0.0.1:${metrics.port}/metrics`;
      const basic = `Basic ${Buffer.from('ops:secret').toString('base64')}`;
      const [none, wrong, token, admin] = await Promise.all([
        fetch(url),
        fetch(url, { headers: { Authorization: 'Bearer nope' } }),
        fetch(url, { headers: { Authorization: 'Bearer scrape-token' } }),
        fetch(url, { headers: { Authorization: basic } }),
      ]);
      expect([none.status, wrong.status, token.status, admin.status]).to.deep.equal([401, 401, 200, 200]);
      expect(none.headers.get('www-authenticate')).to.match(/^Basic realm=/);
      expect(await token.text()).to.match(/^hc_queue_jobs\{queue="notify",state="waiting"\} 0$/m);
    } finally {
      await metrics.close();
    }
  });

  it('answers 404 for other paths and 405 for other methods', async () => {
    const metrics = await startWorkerMetrics(testContext().redis, OPS);
    try {
      const base = `http://127.0.0.1:${metrics.port}`;
      const other = await fetch(`${base}/other`);
      const post = await fetch(`${base}/metrics`, { method: 'POST' });
      expect([other.status, post.status]).to.deep.equal([404, 405]);
      expect(await other.json()).to.deep.equal({ error: 'not found' });
    } finally {
      await metrics.close();
    }
  });
});
