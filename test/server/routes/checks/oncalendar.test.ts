import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Check } from '../../../../shared/models/check.js';
import { api, apiAt, fixedClock } from '../support.js';

const kindOf = async (id: string) => (await Check.findById(id).lean())?.kind;

/** OnCalendar schedules through the Management API (docs/api.md, "OnCalendar schedules"; docs/api-reference.md, "Validation"). */
describe('OnCalendar checks through the API', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('creates one from a systemd timer line: 201, kind oncalendar, shown with schedule and tz like cron', async () => {
    const res = await api(p.apiKey).post('/checks/', { schedule: 'Mon..Fri *-*-* 09:00', tz: 'UTC' });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ schedule: 'Mon..Fri *-*-* 09:00', tz: 'UTC' });
    expect(res.body).to.not.have.any.keys('timeout', 'kind');
    expect(await kindOf(res.body.uuid)).to.equal('oncalendar');
  });

  it('creates one through v1 too, several lines with a zone suffix kept as sent', async () => {
    const schedule = '12:34 Asia/Tokyo\nSat *-*-* 18:00:30';
    const res = await apiAt(1, p.apiKey).post('/checks/', { schedule, tz: 'US/Eastern' });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ schedule, tz: 'America/New_York' });
    expect(await kindOf(res.body.uuid)).to.equal('oncalendar');
  });

  it('turns a cron check into an OnCalendar one and back by the schedule shape', async () => {
    const check = await buildCheck(p, { kind: 'cron', schedule: '0 * * * *' });
    await api(p.apiKey).post(`/checks/${check._id}`, { schedule: 'hourly' });
    expect(await kindOf(check._id)).to.equal('oncalendar');
    await api(p.apiKey).post(`/checks/${check._id}`, { schedule: '0 9 * * 1-5' });
    expect(await kindOf(check._id)).to.equal('cron');
  });

  it('gives next_ping at the calendar moment after the last ping', async () => {
    // 2020-06-01 is a Monday; the last ping at 10:00 UTC makes Tuesday 09:00 Riga (06:00 UTC) the next.
    const lastPing = new Date('2020-06-01T10:00:00Z');
    const check = await buildCheck(p, { kind: 'oncalendar', schedule: 'Mon..Fri *-*-* 09:00', tz: 'Europe/Riga', status: 'up', lastPing });
    const res = await api(p.apiKey, fixedClock()).get(`/checks/${check._id}`);
    expect(res.body).to.include({ status: 'up', next_ping: '2020-06-02T06:00:00+00:00' });
  });

  it('accepts a schedule whose last occurrence has passed: never late', async () => {
    const res = await api(p.apiKey).post('/checks/', { schedule: '2001-01-01 00:00', tz: 'UTC' });
    expect(res.status).to.equal(201);
    const check = await buildCheck(p, { kind: 'oncalendar', schedule: '2001-01-01 00:00', status: 'up', lastPing: new Date('2020-01-01T00:00:00Z') });
    const read = await api(p.apiKey, fixedClock()).get(`/checks/${check._id}`);
    expect(read.body).to.include({ status: 'up', next_ping: null });
  });

  it('answers the reference message for a schedule it refuses, never a 500', async () => {
    for (const schedule of ['Mon..Fri *-*-* 09:00 Mars/Olympus', '*-*~29', 'constructor', '12:00 Europe', '\u0000']) {
      const res = await api(p.apiKey).post('/checks/', { schedule });
      expect([res.status, res.body.error]).to.deep.equal([400, 'json validation error: schedule is not a valid cron or OnCalendar expression']);
    }
  });
});
