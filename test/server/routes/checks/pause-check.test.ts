import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Check } from '../../../../shared/models/check.js';
import { Flip } from '../../../../shared/models/flip.js';
import { api, fixedClock, NOW } from '../support.js';

describe('POST /api/v3/checks/<uuid>/pause', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('answers 200 with the paused check', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: NOW });
    const res = await api(p.apiKey, fixedClock()).post(`/checks/${check._id}/pause`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ uuid: check._id, status: 'paused', next_ping: null });
  });

  it('clears the run and the deadline but keeps last_ping', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: NOW, lastStart: NOW, deadline: NOW });
    await api(p.apiKey).post(`/checks/${check._id}/pause`);
    const stored = await Check.findById(check._id).lean();
    expect(stored).to.include({ status: 'paused', lastStart: null, deadline: null });
    expect(stored?.lastPing).to.deep.equal(NOW);
  });

  it('records a processed up→paused flip', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: NOW });
    await api(p.apiKey, fixedClock()).post(`/checks/${check._id}/pause`);
    const flips = await Flip.find({ checkId: check._id }).lean();
    expect(flips).to.have.length(1);
    expect(flips[0]).to.include({ oldStatus: 'up', newStatus: 'paused' });
    expect(flips[0].processed).to.deep.equal(NOW);
  });

  it('records no flip for an already paused check and still answers 200', async () => {
    const check = await buildCheck(p, { status: 'paused' });
    const res = await api(p.apiKey).post(`/checks/${check._id}/pause`);
    expect([res.status, res.body.status]).to.deep.equal([200, 'paused']);
    expect(await Flip.countDocuments({})).to.equal(0);
  });

  it('accepts the API key in the body', async () => {
    const check = await buildCheck(p);
    const res = await api(undefined).post(`/checks/${check._id}/pause`, { api_key: p.apiKey });
    expect(res.status).to.equal(200);
  });

  it('refuses a read-only key', async () => {
    const check = await buildCheck(p);
    const res = await api(p.apiKeyReadonly).post(`/checks/${check._id}/pause`);
    expect([res.status, res.body.error]).to.deep.equal([401, 'wrong api key']);
  });

  it('answers 405 to GET', async () => {
    const check = await buildCheck(p);
    const res = await api(p.apiKey).get(`/checks/${check._id}/pause`);
    expect([res.status, res.text]).to.deep.equal([405, '']);
  });

  it("answers 404 for an unknown check and 403 for another project's", async () => {
    const foreign = await buildCheck(await buildProject());
    const unknown = await api(p.apiKey).post('/checks/7918b17b-a745-4db1-8575-9d2e07c97f79/pause');
    const other = await api(p.apiKey).post(`/checks/${foreign._id}/pause`);
    expect([unknown.status, other.status, other.text]).to.deep.equal([404, 403, '']);
  });

  it('answers 404 on a unique_key path', async () => {
    const res = await api(p.apiKey).post(`/checks/${'a'.repeat(40)}/pause`);
    expect(res.status).to.equal(404);
  });
});
