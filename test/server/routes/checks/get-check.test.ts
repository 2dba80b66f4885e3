import { expect } from 'chai';
import { buildCheck, buildChannel, buildProject, type TestProject } from '../../../helpers/factories.js';
import { uniqueKeyOf } from '../../../../shared/domain/ids.js';
import { api, BASE_URL, COMMON_FIELDS, fixedClock, NOW, READ_WRITE_FIELDS } from '../support.js';

const HOUR_MS = 3600_000;

describe('GET /api/v3/checks/<uuid>', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('returns the 29 read-write fields of a simple check in the reference order', async () => {
    const check = await buildCheck(p, { name: 'db' });
    const res = await api(p.apiKey).get(`/checks/${check._id}`);
    expect(res.status).to.equal(200);
    expect(Object.keys(res.body)).to.deep.equal([...COMMON_FIELDS, ...READ_WRITE_FIELDS, 'timeout']);
  });

  it('returns the UUID and the URLs built from it', async () => {
    const check = await buildCheck(p);
    const res = await api(p.apiKey).get(`/checks/${check._id}`);
    expect(res.body.uuid).to.equal(check._id);
    expect(res.body.ping_url).to.equal(`${BASE_URL}/ping/${check._id}`);
    expect(res.body.update_url).to.equal(`${BASE_URL}/api/v3/checks/${check._id}`);
    expect(res.body.pause_url).to.equal(`${BASE_URL}/api/v3/checks/${check._id}/pause`);
    expect(res.body.resume_url).to.equal(`${BASE_URL}/api/v3/checks/${check._id}/resume`);
  });

  it('shows 24 fields with a read-only key: no UUID, URLs or channels, plus unique_key', async () => {
    const check = await buildCheck(p);
    const res = await api(p.apiKeyReadonly).get(`/checks/${check._id}`);
    expect(Object.keys(res.body)).to.deep.equal([...COMMON_FIELDS, 'unique_key', 'timeout']);
    expect(res.body.unique_key).to.equal(uniqueKeyOf(check._id));
    expect(JSON.stringify(res.body)).not.to.include(check._id);
  });

  it('shows schedule and tz, not timeout, for a cron check', async () => {
    const check = await buildCheck(p, { kind: 'cron', schedule: '5 4 * * *', tz: 'Europe/Riga' });
    const res = await api(p.apiKey).get(`/checks/${check._id}`);
    expect(res.body).to.include({ schedule: '5 4 * * *', tz: 'Europe/Riga' });
    expect(res.body).not.to.have.property('timeout');
  });

  it('truncates last_ping and next_ping to whole seconds with a +00:00 offset', async () => {
    const lastPing = new Date('2020-06-01T11:24:32.999Z');
    const check = await buildCheck(p, { status: 'up', lastPing, timeout: 600 });
    const res = await api(p.apiKey, fixedClock()).get(`/checks/${check._id}`);
    expect(res.body.last_ping).to.equal('2020-06-01T11:24:32+00:00');
    expect(res.body.next_ping).to.equal('2020-06-01T11:34:32+00:00');
  });

  it('reports grace between next_ping and next_ping + grace', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: new Date(NOW.getTime() - 24.5 * HOUR_MS) });
    const res = await api(p.apiKey, fixedClock()).get(`/checks/${check._id}`);
    expect(res.body.status).to.equal('grace');
  });

  it('reports down once next_ping + grace has passed, before the alerter stores it', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: new Date(NOW.getTime() - 25 * HOUR_MS) });
    const res = await api(p.apiKey, fixedClock()).get(`/checks/${check._id}`);
    expect(res.body.status).to.equal('down');
  });

  it('shows a run in progress: started true and next_ping at the start', async () => {
    const lastStart = new Date('2020-06-01T11:59:00.500Z');
    const check = await buildCheck(p, { lastStart });
    const res = await api(p.apiKey, fixedClock()).get(`/checks/${check._id}`);
    expect(res.body).to.include({ started: true, status: 'new', next_ping: '2020-06-01T11:59:00+00:00' });
  });

  it('shows last_duration in whole seconds when the last run had a duration', async () => {
    const check = await buildCheck(p, { lastDurationMs: 61_900 });
    const res = await api(p.apiKey).get(`/checks/${check._id}`);
    expect(res.body.last_duration).to.equal(61);
    expect(Object.keys(res.body).indexOf('last_duration')).to.equal(COMMON_FIELDS.length);
  });

  it('shows a sub-second run as last_duration 0 and omits a zero one', async () => {
    const short = await buildCheck(p, { lastDurationMs: 400 });
    const zero = await buildCheck(p, { lastDurationMs: 0 });
    expect((await api(p.apiKey).get(`/checks/${short._id}`)).body.last_duration).to.equal(0);
    expect((await api(p.apiKey).get(`/checks/${zero._id}`)).body).not.to.have.property('last_duration');
  });

  it('builds badge_url from the check badge key, not its UUID', async () => {
    const check = await buildCheck(p);
    const res = await api(p.apiKey).get(`/checks/${check._id}`);
    expect(res.body.badge_url).to.equal(`${BASE_URL}/b/2/${check.badgeKey}.svg`);
  });

  it('mirrors the keywords in subject and subject_fail only while filter_subject is on', async () => {
    const on = await buildCheck(p, { successKw: 'OK', failureKw: 'ERR', filterSubject: true });
    const off = await buildCheck(p, { successKw: 'OK', failureKw: 'ERR', filterSubject: false });
    expect((await api(p.apiKey).get(`/checks/${on._id}`)).body).to.include({ subject: 'OK', subject_fail: 'ERR' });
    expect((await api(p.apiKey).get(`/checks/${off._id}`)).body).to.include({ subject: '', subject_fail: '' });
  });

  it('lists the assigned channel UUIDs sorted and comma-separated', async () => {
    const a = await buildChannel(p, { _id: 'bbbbbbbb-0000-4000-8000-000000000000' });
    const b = await buildChannel(p, { _id: 'aaaaaaaa-0000-4000-8000-000000000000' });
    const check = await buildCheck(p, { channels: [a._id, b._id] });
    const res = await api(p.apiKey).get(`/checks/${check._id}`);
    expect(res.body.channels).to.equal(`${b._id},${a._id}`);
  });

  it('answers 404 for an unknown UUID', async () => {
    const res = await api(p.apiKey).get('/checks/7918b17b-a745-4db1-8575-9d2e07c97f79');
    expect(res.status).to.equal(404);
  });

  it('answers 404 for an uppercase or hyphen-less UUID', async () => {
    const check = await buildCheck(p);
    expect((await api(p.apiKey).get(`/checks/${check._id.toUpperCase()}`)).status).to.equal(404);
    expect((await api(p.apiKey).get(`/checks/${check._id.replace(/-/g, '')}`)).status).to.equal(404);
  });

  it("answers 403 with an empty body for another project's check", async () => {
    const other = await buildProject();
    const check = await buildCheck(other);
    const res = await api(p.apiKey).get(`/checks/${check._id}`);
    expect(res.status).to.equal(403);
    expect(res.text).to.equal('');
  });

  it('answers 401 before looking the check up', async () => {
    const res = await api(undefined).get('/checks/7918b17b-a745-4db1-8575-9d2e07c97f79');
    expect(res.status).to.equal(401);
    expect(res.body).to.deep.equal({ error: 'missing api key' });
  });
});
