import { expect } from 'chai';
import { buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { onlyPing, storedCheck, storedPings, testClock, T0 } from '../../../helpers/pings.js';

describe('ANY /ping/<uuid>/{start,fail,log,<exit_status>}', () => {
  let project: TestProject;
  beforeEach(async () => {
    project = await buildProject();
  });

  it('/start logs a start ping and arms the run timer without touching last_ping', async () => {
    const check = await buildCheck(project, { grace: 60 });
    const res = await http(testClock().clock).get(`/ping/${check._id}/start`);
    expect(res.status).to.equal(200);
    expect((await onlyPing(check._id)).kind).to.equal('start');
    const stored = await storedCheck(check._id);
    expect(stored).to.include({ status: 'new', lastPing: null, nPings: 1 });
    expect(stored.lastStart).to.deep.equal(T0);
    expect(stored.deadline).to.deep.equal(new Date(T0.getTime() + 60_000));
  });

  it('/fail logs a fail ping and marks the check down with no deadline', async () => {
    const check = await buildCheck(project, { status: 'up', lastPing: T0 });
    const res = await http(testClock().clock).get(`/ping/${check._id}/fail`);
    expect(res.status).to.equal(200);
    expect((await onlyPing(check._id)).kind).to.equal('fail');
    const stored = await storedCheck(check._id);
    expect(stored).to.include({ status: 'down', deadline: null, nPings: 1 });
    expect(stored.lastPing).to.deep.equal(T0);
  });

  it('/log logs a log ping and leaves the status and last_ping alone', async () => {
    const check = await buildCheck(project);
    const res = await http().post(`/ping/${check._id}/log`).send('progress 50%');
    expect(res.status).to.equal(200);
    expect((await onlyPing(check._id)).kind).to.equal('log');
    expect(await storedCheck(check._id)).to.include({ status: 'new', lastPing: null, nPings: 1 });
  });

  it('exit status 0 is a success and is stored on the ping', async () => {
    const check = await buildCheck(project);
    const res = await http().get(`/ping/${check._id}/0`);
    expect(res.status).to.equal(200);
    expect(await onlyPing(check._id)).to.include({ kind: 'success', exitStatus: 0 });
    expect((await storedCheck(check._id)).status).to.equal('up');
  });

  it('exit status 1 to 255 is a failure', async () => {
    const check = await buildCheck(project);
    await http().get(`/ping/${check._id}/1`);
    await http().get(`/ping/${check._id}/255`);
    const pings = await storedPings(check._id);
    expect(pings.map((p) => [p.kind, p.exitStatus])).to.deep.equal([['fail', 1], ['fail', 255]]);
    expect((await storedCheck(check._id)).status).to.equal('down');
  });

  it('exit status above 255 answers 400 invalid url format and records nothing', async () => {
    const check = await buildCheck(project);
    const res = await http().get(`/ping/${check._id}/256`);
    expect(res.status).to.equal(400);
    expect(res.text).to.equal('invalid url format');
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(await storedCheck(check._id)).to.include({ nPings: 0, status: 'new' });
  });

  it('exit status above 255 on an unknown UUID answers 404 (the check is looked up first)', async () => {
    const res = await http().get('/ping/2d2d1a5e-0a5c-4c8e-8f6e-7d1f3c7a0b11/999');
    expect(res.status).to.equal(404);
  });

  it('a negative exit status does not match a route (404)', async () => {
    const check = await buildCheck(project);
    const res = await http().get(`/ping/${check._id}/-1`);
    expect(res.status).to.equal(404);
    expect((await storedCheck(check._id)).nPings).to.equal(0);
  });

  it('a huge exit status answers 400 invalid url format', async () => {
    const check = await buildCheck(project);
    const res = await http().get(`/ping/${check._id}/99999999999999999999999`);
    expect(res.status).to.equal(400);
    expect(res.text).to.equal('invalid url format');
  });
});
