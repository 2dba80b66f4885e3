import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Check, type CheckDoc } from '../../../../shared/models/check.js';
import { pendingDeadline } from '../../../helpers/deadlines.js';
import { api, COMMON_FIELDS, READ_WRITE_FIELDS } from '../support.js';

/** `notify_late` and `repeat_every` in the check payload and JSON (docs/alerting-rules.md). */
describe('POST /api/v3/checks/ with notify_late and repeat_every', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });
  const stored = async (uuid: string) => (await Check.findById(uuid).lean<CheckDoc>())!;

  it('creates a check with both rules and returns them', async () => {
    const res = await api(p.apiKey).post('/checks/', { name: 'backup', notify_late: true, repeat_every: 3600 });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ notify_late: true, repeat_every: 3600 });
    expect(await stored(res.body.uuid)).to.include({ notifyLate: true, repeatEvery: 3600 });
  });

  it('returns exactly the keys of today for a check without rules, and for one whose rules were turned off', async () => {
    const keys = [...COMMON_FIELDS, ...READ_WRITE_FIELDS, 'timeout'].sort();
    const plain = await api(p.apiKey).post('/checks/', { name: 'plain' });
    expect(Object.keys(plain.body).sort()).to.deep.equal(keys);
    const off = await api(p.apiKey).post(`/checks/${plain.body.uuid}`, { notify_late: false, repeat_every: null });
    expect(Object.keys(off.body).sort()).to.deep.equal(keys);
  });

  it('sets and clears the rules through an update', async () => {
    const check = await buildCheck(p);
    const on = await api(p.apiKey).post(`/checks/${check._id}`, { repeat_every: 300 });
    expect(on.body).to.include({ repeat_every: 300 }).and.not.have.property('notify_late');
    const off = await api(p.apiKey).post(`/checks/${check._id}`, { repeat_every: null });
    expect(off.body).to.not.have.property('repeat_every');
    expect((await stored(check._id)).repeatEvery).to.equal(null);
  });

  it('moves the deadline job to the grace start when notify_late is turned on', async () => {
    const lastPing = new Date(Date.now() - 1000);
    const check = await buildCheck(p, { status: 'up', lastPing, timeout: 3600, grace: 3600, deadline: new Date(lastPing.getTime() + 7200_000) });
    await api(p.apiKey).post(`/checks/${check._id}`, { notify_late: true });
    const due = (await pendingDeadline(check._id))!.getTime();
    expect(due).to.be.within(lastPing.getTime() + 3600_000, lastPing.getTime() + 3601_000);
  });

  it('starts the reminders of a check already down when repeat_every is set', async () => {
    const check = await buildCheck(p, { status: 'down' });
    await api(p.apiKey).post(`/checks/${check._id}`, { repeat_every: 600 });
    const { remindAt, remindN } = await stored(check._id);
    expect(remindN).to.equal(0);
    expect((await pendingDeadline(check._id))!.getTime()).to.be.within(remindAt!.getTime(), remindAt!.getTime() + 1000);
  });

  const refusals: Array<[string, object, string]> = [
    ['repeat_every under 300', { repeat_every: 299 }, 'repeat_every is too small'],
    ['a negative repeat_every', { repeat_every: -600 }, 'repeat_every is too small'],
    ['a non-integer repeat_every', { repeat_every: 300.5 }, 'repeat_every is not a number'],
    ['a string repeat_every', { repeat_every: '600' }, 'repeat_every is not a number'],
    ['a repeat_every over a year', { repeat_every: 31_536_001 }, 'repeat_every is too large'],
    ['a notify_late that is not a boolean', { notify_late: 'yes' }, 'notify_late is not a boolean'],
  ];
  for (const [what, body, message] of refusals) {
    it(`refuses ${what} with 400 and changes nothing`, async () => {
      const check = await buildCheck(p, { name: 'same' });
      const res = await api(p.apiKey).post(`/checks/${check._id}`, { name: 'changed', ...body });
      expect([res.status, res.body]).to.deep.equal([400, { error: `json validation error: ${message}` }]);
      expect(await stored(check._id)).to.include({ name: 'same', rev: 0 }).and.not.have.property('repeatEvery');
    });
  }
});
