import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Maintenance } from '../../../../shared/models/maintenance.js';
import { api, COMMON_FIELDS, READ_WRITE_FIELDS, fixedClock, NOW } from '../support.js';

const HOUR_MS = 3600_000;
const iso = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

/** `maintenance/` and `maintenance/<uuid>` (docs/alerting-rules.md), at a fixed clock. */
describe('/api/v3/maintenance/', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });
  const at = () => api(p.apiKey, fixedClock());
  const oneOff = (fields: object = {}) => ({ name: 'upgrade', start: iso(-HOUR_MS), end: iso(HOUR_MS), checks: '*', ...fields });

  it('creates a one-off window (201) and lists and reads it', async () => {
    const res = await at().post('/maintenance/', oneOff());
    expect(res.status).to.equal(201);
    expect(res.body).to.deep.equal({
      uuid: res.body.uuid, name: 'upgrade', checks: '*', tags: '', active: true,
      start: '2020-06-01T11:00:00+00:00', end: '2020-06-01T13:00:00+00:00', active_until: '2020-06-01T13:00:00+00:00',
    });
    expect((await at().get('/maintenance/')).body).to.deep.equal({ maintenance: [res.body] });
    expect((await at().get(`/maintenance/${res.body.uuid}`)).body).to.deep.equal(res.body);
  });

  it('creates a recurring window with the cron engine, in its zone', async () => {
    // 13:00 in Riga (UTC+3 in June) is 10:00 UTC; two hours long, so active at 12:00 UTC until 12:00.
    const res = await at().post('/maintenance/', { name: 'nightly', schedule: '0 13 * * *', tz: 'Europe/Riga', duration: 7200, tags: 'db' });
    expect(res.body).to.include({ schedule: '0 13 * * *', tz: 'Europe/Riga', duration: 7200, tags: 'db', active: false });
    const later = await at().post(`/maintenance/${res.body.uuid}`, { duration: 7201 });
    expect(later.body).to.include({ active: true, active_until: '2020-06-01T12:00:01+00:00' });
  });

  it('updates, then deletes a window', async () => {
    const check = await buildCheck(p);
    const { body } = await at().post('/maintenance/', oneOff());
    const updated = await at().post(`/maintenance/${body.uuid}`, { name: 'db', checks: [check._id] });
    expect(updated.body).to.include({ name: 'db', start: body.start }).and.deep.include({ checks: [check._id] });
    expect((await at().delete(`/maintenance/${body.uuid}`)).body.uuid).to.equal(body.uuid);
    expect((await at().get(`/maintenance/${body.uuid}`)).status).to.equal(404);
  });

  it('lets a read-only key read but not write, and hides other projects\' windows', async () => {
    const { body } = await at().post('/maintenance/', oneOff());
    expect((await api(p.apiKeyReadonly, fixedClock()).get(`/maintenance/${body.uuid}`)).status).to.equal(200);
    expect((await api(p.apiKeyReadonly).post('/maintenance/', oneOff())).status).to.equal(401);
    const other = await buildProject();
    expect((await api(other.apiKey).get(`/maintenance/${body.uuid}`)).status).to.equal(404);
    expect((await api(other.apiKey).get('/maintenance/')).body).to.deep.equal({ maintenance: [] });
  });

  it('shows maintenance: true on a covered check only while the window is active, and no such key otherwise', async () => {
    const covered = await buildCheck(p, { tags: 'db' });
    const plain = await buildCheck(p, { tags: 'web' });
    await at().post('/maintenance/', oneOff({ checks: undefined, tags: 'db' }));
    expect((await at().get(`/checks/${covered._id}`)).body.maintenance).to.equal(true);
    const keys = [...COMMON_FIELDS, ...READ_WRITE_FIELDS, 'timeout'].sort();
    expect(Object.keys((await at().get(`/checks/${plain._id}`)).body).sort()).to.deep.equal(keys);
    const after = await api(p.apiKey, fixedClock(new Date(NOW.getTime() + 2 * HOUR_MS))).get(`/checks/${covered._id}`);
    expect(Object.keys(after.body).sort()).to.deep.equal(keys);
  });

  const refusals: Array<[string, object, string]> = [
    ['an end before the start', oneOff({ end: iso(-2 * HOUR_MS) }), 'end precedes start'],
    ['a start that is not ISO 8601', oneOff({ start: 'yesterday' }), 'start is not an ISO 8601 time'],
    ['an invalid cron schedule', { schedule: '61 * * * *', duration: 60, checks: '*' }, 'schedule is not a valid cron or OnCalendar expression'],
    ['an invalid tz', { schedule: '0 1 * * *', tz: 'Mars/Base', duration: 60, checks: '*' }, 'tz is not a valid timezone'],
    ['a negative duration', { schedule: '0 1 * * *', duration: -60, checks: '*' }, 'duration is too small'],
    ['a non-integer duration', { schedule: '0 1 * * *', duration: 1.5, checks: '*' }, 'duration is not a number'],
    ['a schedule without duration', { schedule: '0 1 * * *', checks: '*' }, 'duration is missing'],
    ['both kinds at once', oneOff({ schedule: '0 1 * * *', duration: 60 }), 'a window needs start and end, or schedule and duration'],
    ['an unknown check UUID', oneOff({ checks: ['7918b17b-a745-4db1-8575-9d2e07c97f79'] }), 'checks names an unknown check: 7918b17b-a745-4db1-8575-9d2e07c97f79'],
    ['nothing covered', oneOff({ checks: undefined }), 'checks or tags is missing'],
  ];
  for (const [what, body, message] of refusals) {
    it(`refuses ${what} with 400 and creates nothing`, async () => {
      const res = await at().post('/maintenance/', body);
      expect([res.status, res.body]).to.deep.equal([400, { error: `json validation error: ${message}` }]);
      expect(await Maintenance.countDocuments()).to.equal(0);
    });
  }

  it('refuses a bad update with 400 and changes nothing', async () => {
    const { body } = await at().post('/maintenance/', oneOff());
    const res = await at().post(`/maintenance/${body.uuid}`, { name: 'x', end: iso(-2 * HOUR_MS) });
    expect([res.status, res.body.error]).to.deep.equal([400, 'json validation error: end precedes start']);
    expect((await at().get(`/maintenance/${body.uuid}`)).body).to.deep.equal(body);
  });

  it('answers 404 for a malformed or unknown window UUID', async () => {
    expect((await at().get('/maintenance/nope')).status).to.equal(404);
    expect((await at().delete('/maintenance/7918b17b-a745-4db1-8575-9d2e07c97f79')).status).to.equal(404);
  });
});
