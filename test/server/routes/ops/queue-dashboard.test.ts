import { expect } from 'chai';
import { appWith, opsOf } from '../project-metrics/support.js';
import { testContext } from '../../../helpers/hooks.js';

const ADMIN = { ADMIN_USER: 'ops', ADMIN_PASSWORD: 'secret' };

describe('/admin/queues: the BullMQ dashboard (bull-board)', () => {
  it('is absent when no admin credential is configured', async () => {
    const res = await appWith(opsOf({ METRICS_TOKEN: 'scrape-token' })).get('/admin/queues').set('Authorization', 'Bearer scrape-token');
    expect(res.status).to.equal(404);
  });

  it('answers 401 with a Basic challenge without credentials', async () => {
    const res = await appWith(opsOf(ADMIN)).get('/admin/queues');
    expect(res.status).to.equal(401);
    expect(res.headers['www-authenticate']).to.match(/^Basic realm=/);
  });

  it('answers 401 for a wrong user, a wrong password, or the metrics token', async () => {
    const app = appWith(opsOf({ ...ADMIN, METRICS_TOKEN: 'scrape-token' }));
    const statuses = await Promise.all([
      app.get('/admin/queues').auth('admin', 'secret'),
      app.get('/admin/queues').auth('ops', 'secret2'),
      app.get('/admin/queues').set('Authorization', 'Bearer scrape-token'),
    ]);
    expect(statuses.map((res) => res.status)).to.deep.equal([401, 401, 401]);
  });

  it('serves the dashboard page and its assets with the admin credential', async () => {
    const app = appWith(opsOf(ADMIN));
    const page = await app.get('/admin/queues').auth('ops', 'secret');
    expect(page.status).to.equal(200);
    expect(page.text).to.include('<base href="/admin/queues/" />');
    const css = /href="(static\/css\/[^"]+)"/.exec(page.text)?.[1];
    const asset = await app.get(`/admin/queues/${css}`).auth('ops', 'secret');
    expect([asset.status, asset.headers['content-type']]).to.deep.equal([200, 'text/css; charset=utf-8']);
  });

  it('lists the service’s queues with their job counts through the dashboard API', async () => {
    await testContext().queues.notify.add('notify', { flipId: 'f1', checkId: 'c1', channelId: 'h1' }, { delay: 60_000, jobId: 'dashboard-test' });
    const res = await appWith(opsOf(ADMIN)).get('/admin/queues/api/queues').auth('ops', 'secret');
    expect(res.status).to.equal(200);
    const queues = res.body.queues as Array<{ name: string; counts: Record<string, number> }>;
    expect(queues.map((queue) => queue.name).sort()).to.deep.equal(['deadlines', 'notify']);
    expect(queues.find((queue) => queue.name === 'notify')?.counts.delayed).to.equal(1);
  });

  it('guards the dashboard API as well', async () => {
    const res = await appWith(opsOf(ADMIN)).get('/admin/queues/api/queues');
    expect(res.status).to.equal(401);
  });
});
