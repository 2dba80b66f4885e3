import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Check } from '../../../../shared/models/check.js';
import { Flip } from '../../../../shared/models/flip.js';
import { api, fixedClock, NOW } from '../support.js';

describe('POST /api/v3/checks/<uuid>/resume', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('answers 200 with status new and last_ping cleared', async () => {
    const check = await buildCheck(p, { status: 'paused', manualResume: true, lastPing: NOW, nPings: 4 });
    const res = await api(p.apiKey).post(`/checks/${check._id}/resume`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ status: 'new', last_ping: null, next_ping: null, n_pings: 4 });
  });

  it('clears the run and the deadline', async () => {
    const check = await buildCheck(p, { status: 'paused', lastStart: NOW, deadline: NOW });
    await api(p.apiKey).post(`/checks/${check._id}/resume`);
    expect(await Check.findById(check._id).lean()).to.include({ status: 'new', lastStart: null, deadline: null });
  });

  it('resumes a paused check whose manual_resume is false', async () => {
    const check = await buildCheck(p, { status: 'paused', manualResume: false });
    const res = await api(p.apiKey).post(`/checks/${check._id}/resume`);
    expect(res.body.status).to.equal('new');
  });

  it('records a processed paused→new flip', async () => {
    const check = await buildCheck(p, { status: 'paused' });
    await api(p.apiKey, fixedClock()).post(`/checks/${check._id}/resume`);
    const flip = await Flip.findOne({ checkId: check._id }).lean();
    expect(flip).to.include({ oldStatus: 'paused', newStatus: 'new' });
    expect(flip?.processed).to.deep.equal(NOW);
  });

  it('answers 409 with a plain-text body when the check is not paused', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: NOW });
    const res = await api(p.apiKey).post(`/checks/${check._id}/resume`);
    expect([res.status, res.text]).to.deep.equal([409, 'check is not paused']);
    expect(res.headers['content-type']).to.match(/^text\/plain/);
  });

  it('leaves a check that is not paused unchanged', async () => {
    const check = await buildCheck(p, { status: 'down', lastPing: NOW });
    await api(p.apiKey).post(`/checks/${check._id}/resume`);
    expect(await Check.findById(check._id).lean()).to.include({ status: 'down' });
    expect(await Flip.countDocuments({})).to.equal(0);
  });

  it('refuses a read-only key', async () => {
    const check = await buildCheck(p, { status: 'paused' });
    const res = await api(p.apiKeyReadonly).post(`/checks/${check._id}/resume`);
    expect([res.status, res.body.error]).to.deep.equal([401, 'wrong api key']);
  });

  it("answers 403 for another project's check", async () => {
    const check = await buildCheck(await buildProject(), { status: 'paused' });
    const res = await api(p.apiKey).post(`/checks/${check._id}/resume`);
    expect([res.status, res.text]).to.deep.equal([403, '']);
  });
});
