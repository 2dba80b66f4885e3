import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Ping } from '../../../../shared/models/ping.js';
import { apiAt, BASE_URL } from '../support.js';

/** docs/api-reference.md, "Check object", "Ping object", "Paths and versions": response URLs use the request's version path; ping_url and badge_url do not. */
describe('URLs in responses follow the request version', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  for (const version of [1, 2, 3] as const) {
    it(`v${version} gives update_url, pause_url and resume_url under /api/v${version}/`, async () => {
      const check = await buildCheck(p);
      const res = await apiAt(version, p.apiKey).get(`/checks/${check._id}`);
      const updateUrl = `${BASE_URL}/api/v${version}/checks/${check._id}`;
      expect(res.body).to.include({ update_url: updateUrl, pause_url: `${updateUrl}/pause`, resume_url: `${updateUrl}/resume` });
    });

    it(`v${version} gives body_url under /api/v${version}/`, async () => {
      const check = await buildCheck(p, { nPings: 1 });
      await Ping.create({ checkId: check._id, n: 1, created: new Date(), kind: 'success', body: Buffer.from('x') });
      const res = await apiAt(version, p.apiKey).get(`/checks/${check._id}/pings/`);
      expect(res.body.pings[0].body_url).to.equal(`${BASE_URL}/api/v${version}/checks/${check._id}/pings/1/body`);
    });
  }

  it('v1 create, list and delete responses carry v1 URLs', async () => {
    const client = apiAt(1, p.apiKey);
    const created = await client.post('/checks/', { name: 'a' });
    expect(created.body.update_url).to.equal(`${BASE_URL}/api/v1/checks/${created.body.uuid}`);
    expect((await client.get('/checks/')).body.checks[0].update_url).to.equal(created.body.update_url);
    expect((await client.delete(`/checks/${created.body.uuid}`)).body.update_url).to.equal(created.body.update_url);
  });

  it('keeps ping_url and badge_url independent of the version', async () => {
    const check = await buildCheck(p);
    const v1 = (await apiAt(1, p.apiKey).get(`/checks/${check._id}`)).body;
    const v3 = (await apiAt(3, p.apiKey).get(`/checks/${check._id}`)).body;
    expect([v1.ping_url, v1.badge_url]).to.deep.equal([v3.ping_url, v3.badge_url]);
  });
});
