import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Check } from '../../../../shared/models/check.js';
import { api } from '../support.js';

/** [payload, expected message after `json validation error: `] (docs/api-reference.md, "Validation"). */
const CASES: Array<[object, string]> = [
  [{ name: 5 }, 'name is not a string'],
  [{ name: 'x'.repeat(101) }, 'name is too long'],
  [{ slug: 5 }, 'slug is not a string'],
  [{ slug: 'x'.repeat(101) }, 'slug is too long'],
  [{ slug: 'Has Caps' }, 'slug does not match pattern'],
  [{ tags: [] }, 'tags is not a string'],
  [{ desc: {} }, 'desc is not a string'],
  [{ timeout: '3600' }, 'timeout is not a number'],
  [{ timeout: 3600.5 }, 'timeout is not a number'],
  [{ timeout: 0 }, 'timeout is too small'],
  [{ timeout: 31536001 }, 'timeout is too large'],
  [{ timeout: true }, 'timeout is too small'],
  [{ grace: false }, 'grace is too small'],
  [{ grace: 'x' }, 'grace is not a number'],
  [{ grace: 31536001 }, 'grace is too large'],
  [{ schedule: 5 }, 'schedule is not a string'],
  [{ schedule: `* * * * ${'*'.repeat(100)}` }, 'schedule is too long'],
  [{ schedule: '' }, 'schedule is not a valid cron or OnCalendar expression'],
  [{ schedule: '* * * * * *' }, 'schedule is not a valid cron or OnCalendar expression'],
  [{ schedule: '0 0 30 2 *' }, 'schedule is not a valid cron or OnCalendar expression'],
  [{ schedule: '99 * * * *' }, 'schedule is not a valid cron or OnCalendar expression'],
  [{ schedule: 'Mon..Fri *-*-* 25:00' }, 'schedule is not a valid cron or OnCalendar expression'],
  [{ schedule: '*-02-30 12:00' }, 'schedule is not a valid cron or OnCalendar expression'],
  [{ schedule: '09:00\n\n17:00' }, 'schedule is not a valid cron or OnCalendar expression'],
  [{ schedule: Array.from({ length: 17 }, () => '*:0/5').join('\n') }, 'schedule is too long'],
  [{ tz: 5 }, 'tz is not a string'],
  [{ tz: 'Mars/Olympus' }, 'tz is not a valid timezone'],
  [{ tz: '' }, 'tz is not a valid timezone'],
  [{ manual_resume: 'true' }, 'manual_resume is not a boolean'],
  [{ filter_subject: 1 }, 'filter_subject is not a boolean'],
  [{ filter_body: 'yes' }, 'filter_body is not a boolean'],
  [{ filter_http_body: 0 }, 'filter_http_body is not a boolean'],
  [{ filter_default_fail: [] }, 'filter_default_fail is not a boolean'],
  [{ methods: 'GET' }, 'methods has unexpected value'],
  [{ methods: 'post' }, 'methods has unexpected value'],
  [{ channels: 5 }, 'channels is not a string'],
  [{ start_kw: 5 }, 'start_kw is not a string'],
  [{ success_kw: 'x'.repeat(201) }, 'success_kw is too long'],
  [{ failure_kw: 'x'.repeat(201) }, 'failure_kw is too long'],
  [{ subject: 5 }, 'subject is not a string'],
  [{ subject_fail: 'x'.repeat(201) }, 'subject_fail is too long'],
  [{ unique: 'name' }, 'unique is not an array'],
  [{ unique: ['desc'] }, "an item in 'unique' has unexpected value"],
  [{ unique: [5] }, "an item in 'unique' has unexpected value"],
];

/** `null` gives each field's type error (docs/api-reference.md, "Validation"). */
const NULLS: Array<[string, string]> = [
  ['name', 'name is not a string'],
  ['timeout', 'timeout is not a number'],
  ['unique', 'unique is not an array'],
  ['manual_resume', 'manual_resume is not a boolean'],
  ['methods', 'methods has unexpected value'],
  ['channels', 'channels is not a string'],
  ['schedule', 'schedule is not a string'],
];

describe('check payload validation (create and update)', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  for (const [body, message] of CASES) {
    it(`rejects ${JSON.stringify(body).slice(0, 50)} with "${message}"`, async () => {
      const res = await api(p.apiKey).post('/checks/', body);
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error: `json validation error: ${message}` });
    });
  }

  for (const [field, message] of NULLS) {
    it(`rejects null ${field} with "${message}"`, async () => {
      const res = await api(p.apiKey).post('/checks/', { [field]: null });
      expect(res.body.error).to.equal(`json validation error: ${message}`);
    });
  }

  it('reports "too large" for an integer beyond double precision', async () => {
    const res = await api(p.apiKey).post('/checks/', { timeout: 1e300 });
    expect(res.body.error).to.equal('json validation error: timeout is too large');
  });

  it('reports "too large" for a number JSON.parse turns into Infinity', async () => {
    const res = await api(p.apiKey).post('/checks/').set('Content-Type', 'application/json').send('{"grace": 1e400}');
    expect(res.body.error).to.equal('json validation error: grace is too large');
  });

  it('counts lengths in code points, not UTF-16 units', async () => {
    const ok = await api(p.apiKey).post('/checks/', { name: '😀'.repeat(100) });
    const long = await api(p.apiKey).post('/checks/', { name: '😀'.repeat(101) });
    expect(ok.status).to.equal(201);
    expect(long.body.error).to.equal('json validation error: name is too long');
  });

  it('reports only the first invalid field in the fixed order', async () => {
    const res = await api(p.apiKey).post('/checks/', { unique: 1, tz: 1, name: 1, grace: 1.5, channels: 1 });
    expect(res.body.error).to.equal('json validation error: channels is not a string');
  });

  it('reports grace before name and name before timeout', async () => {
    const first = await api(p.apiKey).post('/checks/', { timeout: 'x', name: 1, grace: 'x' });
    const second = await api(p.apiKey).post('/checks/', { timeout: 'x', name: 1 });
    expect(first.body.error).to.equal('json validation error: grace is not a number');
    expect(second.body.error).to.equal('json validation error: name is not a string');
  });

  it('accepts the boundary values of timeout and grace', async () => {
    const res = await api(p.apiKey).post('/checks/', { timeout: 31536000, grace: 31536000 });
    expect(res.status).to.equal(201);
  });

  it('accepts an empty slug and an empty methods', async () => {
    const res = await api(p.apiKey).post('/checks/', { slug: '', methods: '' });
    expect(res.status).to.equal(201);
  });

  it('validates update payloads the same way and leaves the check unchanged', async () => {
    const check = await buildCheck(p, { name: 'keep' });
    const res = await api(p.apiKey).post(`/checks/${check._id}`, { name: 'new', timeout: '60' });
    expect(res.body.error).to.equal('json validation error: timeout is not a number');
    expect((await Check.findById(check._id).lean())?.name).to.equal('keep');
  });

  it('validates the payload only after the key check', async () => {
    const res = await api(undefined).post('/checks/', { name: 5 });
    expect(res.status).to.equal(401);
  });
});
