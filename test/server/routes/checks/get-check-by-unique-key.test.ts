import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { uniqueKeyOf } from '../../../../shared/domain/ids.js';
import { api, COMMON_FIELDS, READ_WRITE_FIELDS } from '../support.js';

describe('GET /api/v3/checks/<unique_key>', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('returns the check with a read-only key', async () => {
    const check = await buildCheck(p, { name: 'db' });
    const res = await api(p.apiKeyReadonly).get(`/checks/${uniqueKeyOf(check._id)}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ name: 'db', unique_key: uniqueKeyOf(check._id) });
  });

  it('returns the full read-write representation with a read-write key', async () => {
    const check = await buildCheck(p);
    const res = await api(p.apiKey).get(`/checks/${uniqueKeyOf(check._id)}`);
    expect(Object.keys(res.body)).to.deep.equal([...COMMON_FIELDS, ...READ_WRITE_FIELDS, 'timeout']);
  });

  it('matches the documented recipe example', () => {
    expect(uniqueKeyOf('7918b17b-a745-4db1-8575-9d2e07c97f79')).to.equal('7aef250c5c261a8d68a0c18d41137deb22834bee');
  });

  it('answers 404 for an unknown unique_key', async () => {
    const res = await api(p.apiKeyReadonly).get(`/checks/${'a'.repeat(40)}`);
    expect(res.status).to.equal(404);
  });

  it("answers 404 for another project's unique_key (searched in the key's project only)", async () => {
    const check = await buildCheck(await buildProject());
    const res = await api(p.apiKeyReadonly).get(`/checks/${uniqueKeyOf(check._id)}`);
    expect(res.status).to.equal(404);
  });

  it('answers 405 with an empty body to POST and DELETE', async () => {
    const key = uniqueKeyOf((await buildCheck(p))._id);
    const post = await api(p.apiKey).post(`/checks/${key}`, { name: 'x' });
    const del = await api(p.apiKey).delete(`/checks/${key}`);
    expect([post.status, post.text, del.status, del.text]).to.deep.equal([405, '', 405, '']);
  });

  it('advertises only GET in its CORS headers', async () => {
    const res = await api(undefined).get(`/checks/${'a'.repeat(40)}`).set('Origin', 'x');
    expect(res.headers['access-control-allow-methods']).to.equal('GET, OPTIONS');
  });

  it('answers 404 for a 40-character key in uppercase', async () => {
    const key = uniqueKeyOf((await buildCheck(p))._id).toUpperCase();
    expect((await api(p.apiKeyReadonly).get(`/checks/${key}`)).status).to.equal(404);
  });
});
