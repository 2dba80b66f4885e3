import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { storedCheck } from '../../../helpers/pings.js';
import { apiAt } from '../support.js';

/** docs/api-reference.md, "Paths and versions", "Endpoints": v1 and v2 derive `slug` from `name`; v3 never does. */
describe('slug derived from name in v1 and v2', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  for (const version of [1, 2] as const) {
    it(`v${version} stores the slugified name on create`, async () => {
      const res = await apiAt(version, p.apiKey).post('/checks/', { name: 'Database Backup! (prod)' });
      expect(res.body.slug).to.equal('database-backup-prod');
      expect((await storedCheck(res.body.uuid)).slug).to.equal('database-backup-prod');
    });

    it(`v${version} replaces the slug when an update gives a name`, async () => {
      const check = await buildCheck(p, { name: 'old', slug: 'old' });
      const res = await apiAt(version, p.apiKey).post(`/checks/${check._id}`, { name: 'Nightly ETL' });
      expect(res.body.slug).to.equal('nightly-etl');
      expect((await storedCheck(check._id)).slug).to.equal('nightly-etl');
    });

    it(`v${version} keeps the slug when an update gives no name`, async () => {
      const check = await buildCheck(p, { name: 'Old Name', slug: 'kept' });
      const res = await apiAt(version, p.apiKey).post(`/checks/${check._id}`, { tags: 'x' });
      expect(res.body.slug).to.equal('kept');
    });

    it(`v${version} lets an explicit slug in the same payload win`, async () => {
      const res = await apiAt(version, p.apiKey).post('/checks/', { name: 'Foo', slug: 'custom-slug' });
      expect(res.body.slug).to.equal('custom-slug');
    });

    it(`v${version} stores an empty slug for an empty or non-ASCII name`, async () => {
      const check = await buildCheck(p, { name: 'x', slug: 'x' });
      const res = await apiAt(version, p.apiKey).post(`/checks/${check._id}`, { name: '日本語' });
      expect(res.body.slug).to.equal('');
    });
  }

  it('v1 applies the derived slug to an upsert match', async () => {
    const check = await buildCheck(p, { name: 'Foo Bar', slug: '' });
    const res = await apiAt(1, p.apiKey).post('/checks/', { name: 'Foo Bar', unique: ['name'] });
    expect([res.status, res.body.uuid, res.body.slug]).to.deep.equal([200, check._id, 'foo-bar']);
  });

  it('v3 neither sets a slug on create nor changes it on update', async () => {
    const created = await apiAt(3, p.apiKey).post('/checks/', { name: 'Foo' });
    expect(created.body.slug).to.equal('');
    const check = await buildCheck(p, { name: 'a', slug: 'foo' });
    expect((await apiAt(3, p.apiKey).post(`/checks/${check._id}`, { name: 'Bar' })).body.slug).to.equal('foo');
  });
});
