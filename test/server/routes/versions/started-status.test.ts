import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { uniqueKeyOf } from '../../../../shared/domain/ids.js';
import { apiAt, fixedClock, NOW } from '../support.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 3600_000;
const ago = (ms: number): Date => new Date(NOW.getTime() - ms);

/** docs/api-reference.md, "Paths and versions": v1 reports a run in progress as `started`; v2 and v3 report the underlying status. */
describe('status of a started check in v1, v2 and v3', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('v1 reports started for a new check with a run in progress, with started: true', async () => {
    const check = await buildCheck(p, { lastStart: ago(5 * MINUTE_MS) });
    const res = await apiAt(1, p.apiKey, fixedClock()).get(`/checks/${check._id}`);
    expect([res.body.status, res.body.started]).to.deep.equal(['started', true]);
  });

  it('v2 and v3 report the stored status new with started: true', async () => {
    const check = await buildCheck(p, { lastStart: ago(5 * MINUTE_MS) });
    for (const version of [2, 3] as const) {
      const res = await apiAt(version, p.apiKey, fixedClock()).get(`/checks/${check._id}`);
      expect([res.body.status, res.body.started], `v${version}`).to.deep.equal(['new', true]);
    }
  });

  it('v1 reports started over an up check, which v2 reports up', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: ago(2 * HOUR_MS), lastStart: ago(5 * MINUTE_MS) });
    expect((await apiAt(1, p.apiKey, fixedClock()).get(`/checks/${check._id}`)).body.status).to.equal('started');
    expect((await apiAt(2, p.apiKey, fixedClock()).get(`/checks/${check._id}`)).body.status).to.equal('up');
  });

  it('v1 reports started over a stored down check while the run is within its grace time', async () => {
    const check = await buildCheck(p, { status: 'down', lastPing: ago(48 * HOUR_MS), lastStart: ago(5 * MINUTE_MS) });
    expect((await apiAt(1, p.apiKey, fixedClock()).get(`/checks/${check._id}`)).body.status).to.equal('started');
  });

  it('v1 reports down once the run has overrun its grace time', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: ago(3 * HOUR_MS), lastStart: ago(2 * HOUR_MS) });
    expect((await apiAt(1, p.apiKey, fixedClock()).get(`/checks/${check._id}`)).body.status).to.equal('down');
  });

  it('v1 reports the stored status when no run is in progress', async () => {
    const check = await buildCheck(p, { status: 'paused' });
    expect((await apiAt(1, p.apiKey, fixedClock()).get(`/checks/${check._id}`)).body.status).to.equal('paused');
  });

  it('v1 reports started in the list, by unique_key, and on update and delete', async () => {
    const check = await buildCheck(p, { lastStart: ago(MINUTE_MS) });
    const v1 = apiAt(1, p.apiKey, fixedClock());
    expect((await v1.get('/checks/')).body.checks[0].status).to.equal('started');
    const byKey = await apiAt(1, p.apiKeyReadonly, fixedClock()).get(`/checks/${uniqueKeyOf(check._id)}`);
    expect(byKey.body.status).to.equal('started');
    expect((await v1.post(`/checks/${check._id}`, {})).body.status).to.equal('started');
    expect((await v1.delete(`/checks/${check._id}`)).body.status).to.equal('started');
  });

  it('v2 reports the stored status on an upsert match of a started check', async () => {
    await buildCheck(p, { name: 'X', lastStart: ago(MINUTE_MS) });
    const res = await apiAt(2, p.apiKey, fixedClock()).post('/checks/', { name: 'X', unique: ['name'] });
    expect([res.status, res.body.status, res.body.started]).to.deep.equal([200, 'new', true]);
  });
});
