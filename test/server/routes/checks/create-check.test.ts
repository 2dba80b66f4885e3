import { expect } from 'chai';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Check } from '../../../../shared/models/check.js';
import { api, BASE_URL } from '../support.js';

describe('POST /api/v3/checks/', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('creates a check with the defaults and answers 201', async () => {
    const res = await api(p.apiKey).post('/checks/', {});
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ name: '', slug: '', tags: '', desc: '', grace: 3600, timeout: 86400, status: 'new' });
    expect(res.body).to.include({ n_pings: 0, last_ping: null, next_ping: null, manual_resume: false, methods: '', channels: '' });
  });

  it('returns a ping_url built from the new UUID', async () => {
    const res = await api(p.apiKey).post('/checks/', { name: 'backup' });
    expect(res.body.ping_url).to.equal(`${BASE_URL}/ping/${res.body.uuid}`);
    expect(await Check.countDocuments({ _id: res.body.uuid, projectId: p.project._id })).to.equal(1);
  });

  it('treats an empty body as {}', async () => {
    const res = await api(p.apiKey).post('/checks/').set('Content-Length', '0');
    expect(res.status).to.equal(201);
  });

  it('stores the given fields', async () => {
    const body = { name: 'db', slug: 'db-x', tags: 'prod db', desc: 'nightly', timeout: 120, grace: 90, methods: 'POST', manual_resume: true };
    const res = await api(p.apiKey).post('/checks/', body);
    expect(res.body).to.include(body);
  });

  it('never derives the slug from the name', async () => {
    const res = await api(p.apiKey).post('/checks/', { name: 'Database Backup' });
    expect(res.body.slug).to.equal('');
  });

  it('creates a cron check from schedule and ignores a timeout given with it', async () => {
    const res = await api(p.apiKey).post('/checks/', { schedule: '5 4 * * *', tz: 'Europe/Riga', timeout: 120 });
    expect(res.body).to.include({ schedule: '5 4 * * *', tz: 'Europe/Riga' });
    expect(res.body).not.to.have.property('timeout');
    expect((await Check.findById(res.body.uuid).lean())?.timeout).to.equal(86400);
  });

  it('rewrites a legacy tz alias to its canonical name', async () => {
    const res = await api(p.apiKey).post('/checks/', { schedule: '0 * * * *', tz: 'US/Eastern' });
    expect(res.body.tz).to.equal('America/New_York');
  });

  it('stores the keyword and filter fields', async () => {
    const body = { start_kw: 'go', success_kw: 'ok', failure_kw: 'err', filter_subject: true, filter_body: true, filter_http_body: true, filter_default_fail: true };
    const res = await api(p.apiKey).post('/checks/', body);
    expect(res.body).to.include(body);
  });

  it('ignores unknown fields', async () => {
    const res = await api(p.apiKey).post('/checks/', { name: 'x', uuid: 'nope', status: 'up' });
    expect(res.status).to.equal(201);
    expect(res.body.status).to.equal('new');
  });

  it('accepts the API key in the api_key body field', async () => {
    const res = await api(undefined).post('/checks/', { api_key: p.apiKey, name: 'x' });
    expect(res.status).to.equal(201);
  });

  it('refuses a read-only key with 401 wrong api key', async () => {
    const res = await api(p.apiKeyReadonly).post('/checks/', {});
    expect([res.status, res.body.error]).to.deep.equal([401, 'wrong api key']);
  });

  it('answers 403 with an empty body at the check limit', async () => {
    const small = await buildProject({ checkLimit: 1 });
    await buildCheck(small);
    const res = await api(small.apiKey).post('/checks/', { name: 'x' });
    expect([res.status, res.text]).to.deep.equal([403, '']);
  });

  it('counts only the project own checks against the limit', async () => {
    const small = await buildProject({ checkLimit: 1 });
    await buildCheck(p);
    expect((await api(small.apiKey).post('/checks/', {})).status).to.equal(201);
  });

  it('assigns every project channel with channels "*"', async () => {
    const a = await buildChannel(p);
    const b = await buildChannel(p);
    await buildChannel(await buildProject());
    const res = await api(p.apiKey).post('/checks/', { channels: '*' });
    expect(res.body.channels).to.equal([a._id, b._id].sort().join(','));
  });

  it('creates nothing when a channel identifier is bad', async () => {
    const res = await api(p.apiKey).post('/checks/', { channels: 'nope' });
    expect([res.status, res.body.error]).to.deep.equal([400, 'invalid channel identifier: nope']);
    expect(await Check.countDocuments({})).to.equal(0);
  });

  it('checks the limit before resolving channels', async () => {
    const small = await buildProject({ checkLimit: 0 });
    const res = await api(small.apiKey).post('/checks/', { channels: 'nope' });
    expect(res.status).to.equal(403);
  });

  it('answers 405 to other methods on checks/', async () => {
    const res = await api(p.apiKey).delete('/checks/');
    expect([res.status, res.text]).to.deep.equal([405, '']);
  });
});
