import { expect } from 'chai';
import { buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { api, COMMON_FIELDS } from '../support.js';

const at = (minute: number): Date => new Date(Date.UTC(2020, 0, 1, 0, minute));

describe('GET /api/v3/checks/', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it("returns the key's project checks in creation order", async () => {
    await buildCheck(p, { name: 'second', created: at(2) });
    await buildCheck(p, { name: 'first', created: at(1) });
    await buildCheck(await buildProject(), { name: 'foreign' });
    const res = await api(p.apiKey).get('/checks/');
    expect(res.status).to.equal(200);
    expect(res.body.checks.map((c: { name: string }) => c.name)).to.deep.equal(['first', 'second']);
  });

  it('answers 404 for /API/V3/checks/ (paths are case-sensitive, docs/api-reference.md, "Paths and versions")', async () => {
    const res = await http().get('/API/V3/checks/').set('X-Api-Key', p.apiKey);
    expect(res.status).to.equal(404);
  });

  it('returns an empty list for a project without checks', async () => {
    const res = await api(p.apiKey).get('/checks/');
    expect(res.body).to.deep.equal({ checks: [] });
  });

  it('filters by exact slug and returns every match', async () => {
    await buildCheck(p, { slug: 'db', created: at(1) });
    await buildCheck(p, { slug: 'db', created: at(2) });
    await buildCheck(p, { slug: 'db-2' });
    const res = await api(p.apiKey).get('/checks/?slug=db');
    expect(res.body.checks.map((c: { slug: string }) => c.slug)).to.deep.equal(['db', 'db']);
  });

  it('returns an empty list for an unknown slug and ignores an empty slug', async () => {
    await buildCheck(p, { slug: 'db' });
    expect((await api(p.apiKey).get('/checks/?slug=nope')).body.checks).to.have.length(0);
    expect((await api(p.apiKey).get('/checks/?slug=')).body.checks).to.have.length(1);
  });

  it('uses the last value of a repeated slug', async () => {
    await buildCheck(p, { name: 'a', slug: 'a' });
    await buildCheck(p, { name: 'b', slug: 'b' });
    const res = await api(p.apiKey).get('/checks/?slug=a&slug=b');
    expect(res.body.checks.map((c: { name: string }) => c.name)).to.deep.equal(['b']);
  });

  it('matches a tag only as a whole token', async () => {
    await buildCheck(p, { name: 'a', tags: 'a1-tag' });
    await buildCheck(p, { name: 'b', tags: 'x tag' });
    const res = await api(p.apiKey).get('/checks/?tag=tag');
    expect(res.body.checks.map((c: { name: string }) => c.name)).to.deep.equal(['b']);
  });

  it('narrows with a repeated tag to checks carrying every tag', async () => {
    await buildCheck(p, { name: 'both', tags: 'prod db', created: at(1) });
    await buildCheck(p, { name: 'one', tags: 'prod', created: at(2) });
    const res = await api(p.apiKey).get('/checks/?tag=prod&tag=db');
    expect(res.body.checks.map((c: { name: string }) => c.name)).to.deep.equal(['both']);
  });

  it('returns an empty list for an unknown tag', async () => {
    await buildCheck(p, { tags: 'prod' });
    const res = await api(p.apiKey).get('/checks/?tag=staging');
    expect(res.body).to.deep.equal({ checks: [] });
  });

  it('hides UUIDs and URLs and adds unique_key with a read-only key', async () => {
    await buildCheck(p);
    const res = await api(p.apiKeyReadonly).get('/checks/');
    expect(Object.keys(res.body.checks[0])).to.deep.equal([...COMMON_FIELDS, 'unique_key', 'timeout']);
  });

  it('answers 401 without a key and with an unknown key', async () => {
    const missing = await api(undefined).get('/checks/');
    const wrong = await api('x'.repeat(32)).get('/checks/');
    expect([missing.status, missing.body.error]).to.deep.equal([401, 'missing api key']);
    expect([wrong.status, wrong.body.error]).to.deep.equal([401, 'wrong api key']);
  });

  it('answers 404 without the trailing slash', async () => {
    expect((await api(p.apiKey).get('/checks')).status).to.equal(404);
  });
});
