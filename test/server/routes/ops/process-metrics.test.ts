import { expect } from 'chai';
import { appWith, opsOf } from '../project-metrics/support.js';

const ADMIN = { ADMIN_USER: 'ops', ADMIN_PASSWORD: 'pa:ss word' };

describe('GET <METRICS_PATH>: process metrics of the web process', () => {
  it('is not mounted when neither an admin credential nor a metrics token is set', async () => {
    const res = await appWith(opsOf()).get('/metrics');
    expect(res.status).to.equal(404);
  });

  it('answers 401 with a Basic challenge without credentials', async () => {
    const res = await appWith(opsOf(ADMIN)).get('/metrics');
    expect(res.status).to.equal(401);
    expect(res.headers['www-authenticate']).to.match(/^Basic realm=/);
    expect(res.body).to.deep.equal({ error: 'authentication required' });
  });

  it('answers 401 for a wrong password or a wrong token', async () => {
    const app = appWith(opsOf({ ...ADMIN, METRICS_TOKEN: 'scrape-token' }));
    const wrongPassword = await app.get('/metrics').auth('ops', 'pa:ss');
    const wrongToken = await app.get('/metrics').set('Authorization', 'Bearer scrape-tokem');
    expect([wrongPassword.status, wrongToken.status]).to.deep.equal([401, 401]);
  });

  it('serves the Prometheus text format with the admin credential', async () => {
    const res = await appWith(opsOf(ADMIN)).get('/metrics').auth('ops', 'pa:ss word');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
    expect(res.text).to.include('# TYPE process_cpu_user_seconds_total counter');
    expect(res.text).to.include('# TYPE hc_ping_duration_seconds histogram');
    expect(res.text).to.include('# TYPE hc_alert_latency_seconds histogram');
  });

  it('serves them with the metrics token alone, at a configured path', async () => {
    const app = appWith(opsOf({ METRICS_TOKEN: 'scrape-token', METRICS_PATH: '/internal/metrics' }));
    const res = await app.get('/internal/metrics').set('Authorization', 'Bearer scrape-token');
    const old = await app.get('/metrics').set('Authorization', 'Bearer scrape-token');
    expect([res.status, old.status]).to.deep.equal([200, 404]);
    expect(res.text).to.include('nodejs_eventloop_lag_seconds');
  });

  it('times every ping request in hc_ping_duration_seconds', async () => {
    const app = appWith(opsOf(ADMIN));
    const countOf = async () => Number(/^hc_ping_duration_seconds_count (\d+)$/m.exec((await app.get('/metrics').auth('ops', 'pa:ss word')).text)?.[1]);
    const before = await countOf();
    await app.get('/ping/00000000-0000-4000-8000-000000000000').expect(404);
    await app.post('/ping/00000000-0000-4000-8000-000000000001/start').expect(404);
    expect(await countOf()).to.equal(before + 2);
  });
});
