import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { uniqueKeyOf } from '../../../../shared/domain/ids.js';
import { Check } from '../../../../shared/models/check.js';
import { Flip } from '../../../../shared/models/flip.js';
import { Notification } from '../../../../shared/models/notification.js';
import { Ping } from '../../../../shared/models/ping.js';
import { api, NOW } from '../support.js';

describe('DELETE /api/v3/checks/<uuid>', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('answers 200 with the check as it was before deletion', async () => {
    const check = await buildCheck(p, { name: 'gone', status: 'up', lastPing: NOW, nPings: 3 });
    const res = await api(p.apiKey).delete(`/checks/${check._id}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ uuid: check._id, name: 'gone', n_pings: 3, last_ping: '2020-06-01T12:00:00+00:00' });
  });

  it('removes the check for good', async () => {
    const check = await buildCheck(p);
    await api(p.apiKey).delete(`/checks/${check._id}`);
    expect((await api(p.apiKey).get(`/checks/${check._id}`)).status).to.equal(404);
    expect((await api(p.apiKey).delete(`/checks/${check._id}`)).status).to.equal(404);
  });

  it('removes its pings and flips but not those of other checks', async () => {
    const check = await buildCheck(p);
    const other = await buildCheck(p);
    for (const c of [check, other]) {
      await Ping.create({ checkId: c._id, n: 1, created: NOW, kind: 'success' });
      await Flip.create({ checkId: c._id, created: NOW, recorded: NOW, oldStatus: 'new', newStatus: 'up' });
    }
    await api(p.apiKey).delete(`/checks/${check._id}`);
    expect([await Ping.countDocuments({}), await Flip.countDocuments({}), await Check.countDocuments({})]).to.deep.equal([1, 1, 1]);
  });

  it('removes its notifications but not those of other checks', async () => {
    const check = await buildCheck(p);
    const other = await buildCheck(p);
    for (const c of [check, other]) {
      await Notification.create({ _id: `n-${c._id}`, flipId: `f-${c._id}`, checkId: c._id, channelId: 'ch', status: 'down', flipCreated: NOW, created: NOW, updated: NOW });
    }
    await api(p.apiKey).delete(`/checks/${check._id}`);
    expect((await Notification.find({}).lean()).map((n) => n.checkId)).to.deep.equal([other._id]);
  });

  it('refuses a read-only key', async () => {
    const check = await buildCheck(p);
    const res = await api(p.apiKeyReadonly).delete(`/checks/${check._id}`);
    expect([res.status, res.body.error]).to.deep.equal([401, 'wrong api key']);
  });

  it('does not read the key from a DELETE body', async () => {
    const check = await buildCheck(p);
    const res = await api(undefined).delete(`/checks/${check._id}`).send({ api_key: p.apiKey });
    expect([res.status, res.body.error]).to.deep.equal([401, 'missing api key']);
  });

  it("answers 403 for another project's check and keeps it", async () => {
    const check = await buildCheck(await buildProject());
    const res = await api(p.apiKey).delete(`/checks/${check._id}`);
    expect([res.status, res.text]).to.deep.equal([403, '']);
    expect(await Check.countDocuments({ _id: check._id })).to.equal(1);
  });

  it('answers 405 on a unique_key path', async () => {
    const check = await buildCheck(p);
    const res = await api(p.apiKey).delete(`/checks/${uniqueKeyOf(check._id)}`);
    expect(res.status).to.equal(405);
  });
});
