import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Ping, type PingDoc } from '../../../../shared/models/ping.js';
import { Check } from '../../../../shared/models/check.js';
import type { CheckDoc } from '../../../../shared/models/check.js';
import { api, BASE_URL } from '../support.js';

const T0 = Date.parse('2020-06-09T14:00:00.000Z');
const at = (seconds: number): Date => new Date(T0 + seconds * 1000);

/** Stores ping `n` of the check, which counts it as the store does (`n_pings` is the highest number). */
async function addPing(check: CheckDoc, n: number, fields: Partial<PingDoc> = {}): Promise<void> {
  await Ping.create({ checkId: check._id, n, created: at(n), kind: 'success', ...fields });
  await Check.updateOne({ _id: check._id }, { $max: { nPings: n } });
}

describe('GET /api/v3/checks/<uuid>/pings/', () => {
  let p: TestProject;
  let check: CheckDoc;
  beforeEach(async () => {
    p = await buildProject();
    check = await buildCheck(p);
  });

  const list = async () => (await api(p.apiKey).get(`/checks/${check._id}/pings/`)).body.pings;

  it('returns an empty list for a check without pings', async () => {
    const res = await api(p.apiKey).get(`/checks/${check._id}/pings/`);
    expect([res.status, res.body]).to.deep.equal([200, { pings: [] }]);
  });

  it('shows every field of a ping in the reference order', async () => {
    const created = new Date('2020-06-09T14:51:06.113Z');
    await addPing(check, 1, { created, scheme: 'https', remoteAddr: '1.2.3.4', method: 'POST', ua: 'curl', rid: null });
    expect(await list()).to.deep.equal([{
      type: 'success', date: '2020-06-09T14:51:06.113000+00:00', n: 1, scheme: 'https',
      remote_addr: '1.2.3.4', method: 'POST', ua: 'curl', rid: null, body_url: null,
    }]);
  });

  it('adds each exit status only when asked with ?exitstatus=1 (the dashboard; the reference hides it)', async () => {
    await addPing(check, 1, { kind: 'fail', exitStatus: 3 });
    await addPing(check, 2, { exitStatus: null });
    const res = await api(p.apiKey).get(`/checks/${check._id}/pings/?exitstatus=1`);
    expect(res.body.pings.map((ping: { exitstatus: number | null }) => ping.exitstatus)).to.deep.equal([null, 3]);
    expect((await list()).every((ping: object) => !('exitstatus' in ping))).to.equal(true);
  });

  it('always gives date six fractional digits', async () => {
    await addPing(check, 1, { created: new Date('2020-06-09T14:51:06.000Z') });
    expect((await list())[0].date).to.equal('2020-06-09T14:51:06.000000+00:00');
  });

  it('lists newest first', async () => {
    for (const n of [1, 2, 3]) await addPing(check, n);
    expect((await list()).map((ping: { n: number }) => ping.n)).to.deep.equal([3, 2, 1]);
  });

  it('shows each stored kind as its type', async () => {
    const kinds = ['start', 'success', 'fail', 'log', 'ign'] as const;
    for (const [i, kind] of kinds.entries()) await addPing(check, i + 1, { kind });
    expect((await list()).map((ping: { type: string }) => ping.type)).to.deep.equal([...kinds].reverse());
  });

  it("returns at most the project's ping log limit", async () => {
    const small = await buildProject({ pingLogLimit: 2 });
    const own = await buildCheck(small);
    for (const n of [1, 2, 3]) await addPing(own, n);
    const res = await api(small.apiKey).get(`/checks/${own._id}/pings/`);
    expect(res.body.pings.map((ping: { n: number }) => ping.n)).to.deep.equal([3, 2]);
  });

  it('gives body_url only for a non-empty body', async () => {
    await addPing(check, 1, { body: Buffer.from('hello') });
    await addPing(check, 2, { body: Buffer.alloc(0) });
    await addPing(check, 3, { body: null });
    const [none, empty, withBody] = await list();
    expect([none.body_url, empty.body_url]).to.deep.equal([null, null]);
    expect(withBody.body_url).to.equal(`${BASE_URL}/api/v3/checks/${check._id}/pings/1/body`);
  });

  it('gives a completion its duration since the matching start, in seconds', async () => {
    await addPing(check, 1, { kind: 'start', created: at(0) });
    await addPing(check, 2, { kind: 'log', created: at(10) });
    await addPing(check, 3, { kind: 'success', created: at(65.4321) });
    const [success, log, start] = await list();
    expect(success.duration).to.equal(65.43);
    expect(log).not.to.have.property('duration');
    expect(start).not.to.have.property('duration');
  });

  it('pairs concurrent runs by rid', async () => {
    const [a, b] = ['aaaaaaaa-0000-4000-8000-000000000000', 'bbbbbbbb-0000-4000-8000-000000000000'];
    await addPing(check, 1, { kind: 'start', rid: a, created: at(0) });
    await addPing(check, 2, { kind: 'start', rid: b, created: at(60) });
    await addPing(check, 3, { kind: 'success', rid: a, created: at(120) });
    await addPing(check, 4, { kind: 'fail', rid: b, created: at(360) });
    const [failB, successA] = await list();
    expect([successA.duration, failB.duration]).to.deep.equal([120, 300]);
  });

  it('does not pair across another completion or a different rid', async () => {
    await addPing(check, 1, { kind: 'start', created: at(0) });
    await addPing(check, 2, { kind: 'success', created: at(5) });
    await addPing(check, 3, { kind: 'success', created: at(9) });
    await addPing(check, 4, { kind: 'success', rid: 'aaaaaaaa-0000-4000-8000-000000000000', created: at(10) });
    const [other, second, first] = await list();
    expect(first.duration).to.equal(5);
    expect(second).not.to.have.property('duration');
    expect(other).not.to.have.property('duration');
  });

  it('does not pair a start 72 hours or more before', async () => {
    await addPing(check, 1, { kind: 'start', created: at(0) });
    await addPing(check, 2, { kind: 'success', created: at(72 * 3600) });
    expect((await list())[0]).not.to.have.property('duration');
  });

  it('refuses a read-only key', async () => {
    const res = await api(p.apiKeyReadonly).get(`/checks/${check._id}/pings/`);
    expect([res.status, res.body.error]).to.deep.equal([401, 'wrong api key']);
  });

  it("answers 404 for an unknown check and 403 for another project's", async () => {
    const foreign = await buildCheck(await buildProject());
    const unknown = await api(p.apiKey).get('/checks/7918b17b-a745-4db1-8575-9d2e07c97f79/pings/');
    const other = await api(p.apiKey).get(`/checks/${foreign._id}/pings/`);
    expect([unknown.status, other.status, other.text]).to.deep.equal([404, 403, '']);
  });

  it('answers 404 on a unique_key path', async () => {
    const res = await api(p.apiKey).get(`/checks/${'a'.repeat(40)}/pings/`);
    expect(res.status).to.equal(404);
  });
});
