import { expect } from 'chai';
import { buildCheck, buildChannel, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { uniqueKeyOf } from '../../../../shared/domain/ids.js';
import { Ping } from '../../../../shared/models/ping.js';
import { apiAt } from '../support.js';

/** docs/api-reference.md, "Paths and versions": the v3 operations answer under /api/v1/ and /api/v2/ too. */
for (const version of [1, 2] as const) {
  describe(`/api/v${version}/ serves the v3 operations`, () => {
    let p: TestProject;
    beforeEach(async () => {
      p = await buildProject();
    });

    it('lists checks, filtered by tag', async () => {
      await buildCheck(p, { name: 'a', tags: 'prod' });
      await buildCheck(p, { name: 'b', tags: 'dev' });
      const res = await apiAt(version, p.apiKey).get('/checks/?tag=prod');
      expect(res.status).to.equal(200);
      expect(res.body.checks.map((check: { name: string }) => check.name)).to.deep.equal(['a']);
    });

    it('creates a check with 201', async () => {
      const res = await apiAt(version, p.apiKey).post('/checks/', { name: 'backup', timeout: 120 });
      expect([res.status, res.body.timeout]).to.deep.equal([201, 120]);
    });

    it('gets a check by UUID and by unique_key', async () => {
      const check = await buildCheck(p, { name: 'db' });
      expect((await apiAt(version, p.apiKey).get(`/checks/${check._id}`)).body.name).to.equal('db');
      const byKey = await apiAt(version, p.apiKeyReadonly).get(`/checks/${uniqueKeyOf(check._id)}`);
      expect([byKey.status, byKey.body.name]).to.deep.equal([200, 'db']);
    });

    it('updates, pauses, resumes and deletes a check', async () => {
      const check = await buildCheck(p);
      const client = apiAt(version, p.apiKey);
      expect((await client.post(`/checks/${check._id}`, { grace: 120 })).body.grace).to.equal(120);
      expect((await client.post(`/checks/${check._id}/pause`)).body.status).to.equal('paused');
      expect((await client.post(`/checks/${check._id}/resume`)).body.status).to.equal('new');
      expect((await client.delete(`/checks/${check._id}`)).status).to.equal(200);
      expect((await client.get(`/checks/${check._id}`)).status).to.equal(404);
    });

    it('lists pings and serves a ping body', async () => {
      const check = await buildCheck(p, { nPings: 1 });
      await Ping.create({ checkId: check._id, n: 1, created: new Date(), kind: 'success', body: Buffer.from('hello') });
      const client = apiAt(version, p.apiKey);
      expect((await client.get(`/checks/${check._id}/pings/`)).body.pings).to.have.length(1);
      expect((await client.get(`/checks/${check._id}/pings/1/body`)).text).to.equal('hello');
    });

    it('lists flips as a bare array', async () => {
      const check = await buildCheck(p);
      const res = await apiAt(version, p.apiKey).get(`/checks/${check._id}/flips/`);
      expect([res.status, res.body]).to.deep.equal([200, []]);
    });

    it('lists channels and badges', async () => {
      const channel = await buildChannel(p, { name: 'ops' });
      const client = apiAt(version, p.apiKey);
      expect((await client.get('/channels/')).body.channels).to.deep.equal([{ id: channel._id, name: 'ops', kind: 'email' }]);
      expect((await client.get('/badges/')).body.badges).to.have.property('*');
    });

    it('applies the same authentication and validation', async () => {
      const client = apiAt(version, p.apiKeyReadonly);
      expect((await client.post('/checks/', { name: 'x' })).body).to.deep.equal({ error: 'wrong api key' });
      const bad = await apiAt(version, p.apiKey).post('/checks/', { timeout: '60' });
      expect(bad.body).to.deep.equal({ error: 'json validation error: timeout is not a number' });
    });

    it('answers the status health check', async () => {
      const res = await http().get(`/api/v${version}/status/`);
      expect([res.status, res.text]).to.deep.equal([200, 'OK']);
    });
  });
}

describe('API versions that do not exist', () => {
  it('answers /api/v4/ and /api/v0/ with 404', async () => {
    const p = await buildProject();
    for (const path of ['/api/v4/checks/', '/api/v0/checks/', '/api/V1/checks/']) {
      expect((await http().get(path).set('X-Api-Key', p.apiKey)).status, path).to.equal(404);
    }
  });
});
