import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Ping } from '../../../../shared/models/ping.js';
import type { CheckDoc } from '../../../../shared/models/check.js';
import { api, NOW } from '../support.js';

describe('GET /api/v3/checks/<uuid>/pings/<n>/body', () => {
  let p: TestProject;
  let check: CheckDoc;
  beforeEach(async () => {
    p = await buildProject();
    check = await buildCheck(p, { nPings: 1 });
  });

  const addPing = (n: number, body: Buffer | null) => Ping.create({ checkId: check._id, n, created: NOW, kind: 'success', body });

  it('returns the body with Content-Type text/plain and no charset', async () => {
    await addPing(1, Buffer.from('hello world'));
    const res = await api(p.apiKey).get(`/checks/${check._id}/pings/1/body`);
    expect([res.status, res.headers['content-type'], res.text]).to.deep.equal([200, 'text/plain', 'hello world']);
  });

  it('returns bytes that are not UTF-8 verbatim', async () => {
    const bytes = Buffer.from([0x66, 0xff, 0x00, 0xc3]);
    await addPing(1, bytes);
    const res = await api(p.apiKey).get(`/checks/${check._id}/pings/1/body`).responseType('blob');
    expect(Buffer.compare(res.body as Buffer, bytes)).to.equal(0);
  });

  it('answers 404 when no ping has that number', async () => {
    const res = await api(p.apiKey).get(`/checks/${check._id}/pings/2/body`);
    expect(res.status).to.equal(404);
  });

  it('answers 404 for a ping without a body or with an empty one', async () => {
    await addPing(1, null);
    await addPing(2, Buffer.alloc(0));
    expect((await api(p.apiKey).get(`/checks/${check._id}/pings/1/body`)).status).to.equal(404);
    expect((await api(p.apiKey).get(`/checks/${check._id}/pings/2/body`)).status).to.equal(404);
  });

  it('answers 404 for a ping outside the retained window', async () => {
    const small = await buildProject({ pingLogLimit: 2 });
    const own = await buildCheck(small, { nPings: 3 });
    await Ping.create({ checkId: own._id, n: 1, created: NOW, kind: 'success', body: Buffer.from('old') });
    await Ping.create({ checkId: own._id, n: 2, created: NOW, kind: 'success', body: Buffer.from('kept') });
    expect((await api(small.apiKey).get(`/checks/${own._id}/pings/1/body`)).status).to.equal(404);
    expect((await api(small.apiKey).get(`/checks/${own._id}/pings/2/body`)).text).to.equal('kept');
  });

  it('answers 404 for a <n> that is not a non-negative integer', async () => {
    expect((await api(p.apiKey).get(`/checks/${check._id}/pings/-1/body`)).status).to.equal(404);
    expect((await api(p.apiKey).get(`/checks/${check._id}/pings/x/body`)).status).to.equal(404);
  });

  it('refuses a read-only key', async () => {
    await addPing(1, Buffer.from('secret'));
    const res = await api(p.apiKeyReadonly).get(`/checks/${check._id}/pings/1/body`);
    expect([res.status, res.body.error]).to.deep.equal([401, 'wrong api key']);
  });

  it("answers 403 for another project's check", async () => {
    const foreign = await buildCheck(await buildProject());
    const res = await api(p.apiKey).get(`/checks/${foreign._id}/pings/1/body`);
    expect([res.status, res.text]).to.deep.equal([403, '']);
  });
});
