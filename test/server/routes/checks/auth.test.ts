import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { api } from '../support.js';

describe('Management API authentication (docs/api-reference.md, "API keys")', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('answers 401 missing api key for a key that is not 32 characters', async () => {
    const res = await api('short').get('/checks/');
    expect([res.status, res.body]).to.deep.equal([401, { error: 'missing api key' }]);
  });

  it('answers 401 wrong api key for an unknown 32-character key', async () => {
    const res = await api(`hcw_${'z'.repeat(28)}`).get('/checks/');
    expect([res.status, res.body]).to.deep.equal([401, { error: 'wrong api key' }]);
  });

  it('uses the header and ignores the body when both are present', async () => {
    const res = await api('x'.repeat(32)).post('/checks/', { api_key: p.apiKey });
    expect(res.body.error).to.equal('wrong api key');
  });

  it('converts a non-string api_key to a string', async () => {
    const res = await api(undefined).post('/checks/', { api_key: 12345 });
    expect(res.body.error).to.equal('missing api key');
  });

  it('does not read the key from the query string', async () => {
    const res = await api(undefined).get(`/checks/?api_key=${p.apiKey}`);
    expect(res.body.error).to.equal('missing api key');
  });

  it('lets read-only keys list and get checks', async () => {
    const check = await buildCheck(p);
    expect((await api(p.apiKeyReadonly).get('/checks/')).status).to.equal(200);
    expect((await api(p.apiKeyReadonly).get(`/checks/${check._id}`)).status).to.equal(200);
  });

  it('refuses read-only keys on the write endpoints', async () => {
    const check = await buildCheck(p);
    const ro = api(p.apiKeyReadonly);
    const statuses = [
      (await ro.post('/checks/', {})).status,
      (await ro.post(`/checks/${check._id}`, {})).status,
      (await ro.delete(`/checks/${check._id}`)).status,
      (await ro.post(`/checks/${check._id}/pause`)).status,
      (await ro.post(`/checks/${check._id}/resume`)).status,
    ];
    expect(statuses).to.deep.equal([401, 401, 401, 401, 401]);
  });

  it("refuses another project's read-only key on this project's check", async () => {
    const check = await buildCheck(p);
    const other = await buildProject();
    const res = await api(other.apiKeyReadonly).get(`/checks/${check._id}`);
    expect([res.status, res.text]).to.deep.equal([403, '']);
  });
});
