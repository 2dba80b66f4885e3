import { expect } from 'chai';
import { pendingTimer } from '../../../helpers/deadlines.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Check } from '../../../../shared/models/check.js';
import { api, fixedClock, NOW } from '../support.js';

const HOUR_MS = 3600_000;

describe('POST /api/v3/checks/<uuid>', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('changes the given fields and answers 200', async () => {
    const check = await buildCheck(p, { name: 'old', tags: 'keep' });
    const res = await api(p.apiKey).post(`/checks/${check._id}`, { name: 'new', grace: 120 });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ uuid: check._id, name: 'new', grace: 120, tags: 'keep' });
  });

  it('leaves omitted fields, channels included, unchanged', async () => {
    const channel = await buildChannel(p);
    const check = await buildCheck(p, { desc: 'd', slug: 's', channels: [channel._id], manualResume: true });
    const res = await api(p.apiKey).post(`/checks/${check._id}`, {});
    expect(res.body).to.include({ desc: 'd', slug: 's', channels: channel._id, manual_resume: true });
  });

  it('turns a simple check into a cron check with schedule', async () => {
    const check = await buildCheck(p);
    const res = await api(p.apiKey).post(`/checks/${check._id}`, { schedule: '0 * * * *', tz: 'Europe/Riga' });
    expect(res.body).to.include({ schedule: '0 * * * *', tz: 'Europe/Riga' }).and.not.have.property('timeout');
  });

  it('turns a cron check into a simple check with timeout', async () => {
    const check = await buildCheck(p, { kind: 'cron', schedule: '0 * * * *' });
    const res = await api(p.apiKey).post(`/checks/${check._id}`, { timeout: 600 });
    expect(res.body).to.include({ timeout: 600 }).and.not.have.property('schedule');
  });

  it('saves schedule and ignores timeout when both are given', async () => {
    const check = await buildCheck(p, { timeout: 300 });
    const res = await api(p.apiKey).post(`/checks/${check._id}`, { timeout: 600, schedule: '0 * * * *' });
    expect(res.body.schedule).to.equal('0 * * * *');
    expect((await Check.findById(check._id).lean())?.timeout).to.equal(300);
  });

  it('stores tz on a simple check without showing it', async () => {
    const check = await buildCheck(p);
    const res = await api(p.apiKey).post(`/checks/${check._id}`, { tz: 'Europe/Riga' });
    expect(res.body).not.to.have.property('tz');
    expect((await Check.findById(check._id).lean())?.tz).to.equal('Europe/Riga');
  });

  it('validates unique but otherwise ignores it', async () => {
    const check = await buildCheck(p, { name: 'a' });
    const ok = await api(p.apiKey).post(`/checks/${check._id}`, { name: 'b', unique: ['name'] });
    const bad = await api(p.apiKey).post(`/checks/${check._id}`, { unique: ['uuid'] });
    expect([ok.status, ok.body.uuid]).to.deep.equal([200, check._id]);
    expect(bad.body.error).to.equal("json validation error: an item in 'unique' has unexpected value");
  });

  it('keeps the stored status, last_ping and n_pings', async () => {
    const lastPing = new Date(NOW.getTime() - HOUR_MS);
    const check = await buildCheck(p, { status: 'up', lastPing, nPings: 7 });
    const res = await api(p.apiKey, fixedClock()).post(`/checks/${check._id}`, { name: 'x' });
    expect(res.body).to.include({ status: 'up', n_pings: 7, last_ping: '2020-06-01T11:00:00+00:00' });
  });

  it('recomputes the deadline, so a shorter timeout can make the check down at once', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: new Date(NOW.getTime() - HOUR_MS) });
    const res = await api(p.apiKey, fixedClock()).post(`/checks/${check._id}`, { timeout: 60, grace: 60 });
    expect(res.body.status).to.equal('down');
    expect((await Check.findById(check._id).lean())?.deadline).to.deep.equal(new Date(NOW.getTime() - HOUR_MS + 120_000));
  });

  it('schedules the new deadline: its one delayed job, due then', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: NOW });
    await api(p.apiKey, fixedClock()).post(`/checks/${check._id}`, { timeout: 600 });
    const deadline = NOW.getTime() + 600_000 + 3600_000;
    const job = await pendingTimer(check._id);
    expect(job?.data.checkId).to.equal(check._id);
    expect(job?.delay).to.equal(deadline - NOW.getTime());
  });

  it('answers 404 for an unknown check', async () => {
    const res = await api(p.apiKey).post('/checks/7918b17b-a745-4db1-8575-9d2e07c97f79', { name: 'x' });
    expect(res.status).to.equal(404);
  });

  it("answers 403 for another project's check before validating the payload", async () => {
    const check = await buildCheck(await buildProject());
    const res = await api(p.apiKey).post(`/checks/${check._id}`, { name: 5 });
    expect([res.status, res.text]).to.deep.equal([403, '']);
  });

  it('refuses a read-only key', async () => {
    const check = await buildCheck(p);
    const res = await api(p.apiKeyReadonly).post(`/checks/${check._id}`, { name: 'x' });
    expect([res.status, res.body.error]).to.deep.equal([401, 'wrong api key']);
  });

  it('accepts the API key in the body', async () => {
    const check = await buildCheck(p);
    const res = await api(undefined).post(`/checks/${check._id}`, { api_key: p.apiKey, name: 'x' });
    expect([res.status, res.body.name]).to.deep.equal([200, 'x']);
  });
});
