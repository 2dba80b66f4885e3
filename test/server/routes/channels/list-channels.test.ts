import { expect } from 'chai';
import { buildChannel, buildProject, type TestProject } from '../../../helpers/factories.js';
import { api } from '../support.js';

describe('GET /api/v3/channels/', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it("lists the project's channels as id, name and kind in creation order", async () => {
    const a = await buildChannel(p, { name: 'Ops', kind: 'email', created: new Date('2020-01-01T00:00:00Z') });
    const b = await buildChannel(p, { name: '', kind: 'sms', created: new Date('2020-01-02T00:00:00Z') });
    const res = await api(p.apiKey).get('/channels/');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ channels: [{ id: a._id, name: 'Ops', kind: 'email' }, { id: b._id, name: '', kind: 'sms' }] });
  });

  it("leaves out other projects' channels", async () => {
    await buildChannel(await buildProject());
    const res = await api(p.apiKey).get('/channels/');
    expect(res.body).to.deep.equal({ channels: [] });
  });

  it('refuses a read-only key', async () => {
    const res = await api(p.apiKeyReadonly).get('/channels/');
    expect([res.status, res.body.error]).to.deep.equal([401, 'wrong api key']);
  });

  it('answers 401 without a key', async () => {
    const res = await api(undefined).get('/channels/');
    expect([res.status, res.body.error]).to.deep.equal([401, 'missing api key']);
  });

  it('answers exactly the reference\'s bytes', async () => {
    const a = await buildChannel(p, { name: 'Ops', kind: 'email', value: 'ops@example.com', created: new Date('2020-01-01T00:00:00Z') });
    const res = await api(p.apiKey).get('/channels/');
    expect(res.text).to.equal(`{"channels":[{"id":"${a._id}","name":"Ops","kind":"email"}]}`);
  });

  it('answers 405 to POST and DELETE (docs/api-reference.md, "CORS and methods": the writes are under integrations/)', async () => {
    expect((await api(p.apiKey).post('/channels/', { kind: 'email', value: 'a@example.com' })).status).to.equal(405);
    const res = await api(p.apiKey).delete('/channels/');
    expect(res.status).to.equal(405);
  });
});
