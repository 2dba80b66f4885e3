import { expect } from 'chai';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Check } from '../../../../shared/models/check.js';
import { api } from '../support.js';

describe('POST /api/v3/checks/ with unique (upsert)', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('updates the match and answers 200', async () => {
    const check = await buildCheck(p, { name: 'backup' });
    const res = await api(p.apiKey).post('/checks/', { name: 'backup', grace: 120, unique: ['name'] });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ uuid: check._id, grace: 120 });
  });

  it('creates a check with 201 when nothing matches', async () => {
    await buildCheck(p, { name: 'other' });
    const res = await api(p.apiKey).post('/checks/', { name: 'backup', unique: ['name'] });
    expect(res.status).to.equal(201);
    expect(await Check.countDocuments({})).to.equal(2);
  });

  it('creates with 201 when a unique field is absent from the request', async () => {
    await buildCheck(p, { name: 'backup' });
    const res = await api(p.apiKey).post('/checks/', { unique: ['name'] });
    expect(res.status).to.equal(201);
  });

  it('always creates with an empty unique', async () => {
    await buildCheck(p, { name: 'backup' });
    const res = await api(p.apiKey).post('/checks/', { name: 'backup', unique: [] });
    expect(res.status).to.equal(201);
  });

  it('requires every listed field to match', async () => {
    await buildCheck(p, { name: 'backup', tags: 'prod' });
    const res = await api(p.apiKey).post('/checks/', { name: 'backup', tags: 'dev', unique: ['name', 'tags'] });
    expect(res.status).to.equal(201);
  });

  it('matches on slug, tags, timeout and grace', async () => {
    const check = await buildCheck(p, { slug: 's', tags: 't u', timeout: 300, grace: 120 });
    const body = { slug: 's', tags: 't u', timeout: 300, grace: 120, unique: ['slug', 'tags', 'timeout', 'grace'] };
    const res = await api(p.apiKey).post('/checks/', body);
    expect([res.status, res.body.uuid]).to.deep.equal([200, check._id]);
  });

  it('compares the stored timeout even for a cron check', async () => {
    const check = await buildCheck(p, { kind: 'cron', timeout: 300 });
    const res = await api(p.apiKey).post('/checks/', { timeout: 300, unique: ['timeout'] });
    expect([res.status, res.body.uuid]).to.deep.equal([200, check._id]);
  });

  it('updates the oldest of several matches', async () => {
    await buildCheck(p, { name: 'backup', created: new Date('2020-01-02T00:00:00Z') });
    const oldest = await buildCheck(p, { name: 'backup', created: new Date('2020-01-01T00:00:00Z') });
    const res = await api(p.apiKey).post('/checks/', { name: 'backup', unique: ['name'] });
    expect(res.body.uuid).to.equal(oldest._id);
  });

  it("does not match another project's check", async () => {
    await buildCheck(await buildProject(), { name: 'backup' });
    const res = await api(p.apiKey).post('/checks/', { name: 'backup', unique: ['name'] });
    expect(res.status).to.equal(201);
  });

  it('is not held back by the check limit when it matches', async () => {
    const full = await buildProject({ checkLimit: 1 });
    await buildCheck(full, { name: 'backup' });
    const res = await api(full.apiKey).post('/checks/', { name: 'backup', unique: ['name'] });
    expect(res.status).to.equal(200);
  });

  it('applies channels to the match', async () => {
    const channel = await buildChannel(p);
    await buildCheck(p, { name: 'backup' });
    const res = await api(p.apiKey).post('/checks/', { name: 'backup', channels: '*', unique: ['name'] });
    expect(res.body.channels).to.equal(channel._id);
  });
});
