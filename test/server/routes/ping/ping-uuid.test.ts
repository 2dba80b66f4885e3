import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { onlyPing, storedCheck, storedPings, testClock, T0 } from '../../../helpers/pings.js';

describe('ANY /ping/<uuid>', () => {
  let project: TestProject;
  beforeEach(async () => {
    project = await buildProject();
  });

  it('answers 200 OK in text/plain with CORS, Ping-Body-Limit and no-cache headers', async () => {
    const check = await buildCheck(project);
    const res = await http().get(`/ping/${check._id}`);
    expect(res.status).to.equal(200);
    expect(res.text).to.equal('OK');
    expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(res.headers['ping-body-limit']).to.equal('10000');
    expect(res.headers['cache-control']).to.equal('max-age=0, no-cache, no-store, must-revalidate, private');
  });

  it('marks a new check up with last_ping, n_pings and the deadline', async () => {
    const check = await buildCheck(project, { timeout: 60, grace: 30 });
    await http(testClock().clock).get(`/ping/${check._id}`);
    const stored = await storedCheck(check._id);
    expect(stored.status).to.equal('up');
    expect(stored.lastPing).to.deep.equal(T0);
    expect(stored.nPings).to.equal(1);
    expect(stored.deadline).to.deep.equal(new Date(T0.getTime() + 90_000));
  });

  it('logs a success ping with the request data', async () => {
    const check = await buildCheck(project);
    await http(testClock().clock).get(`/ping/${check._id}`).set('User-Agent', 'curl/8.0');
    const ping = await onlyPing(check._id);
    expect(ping).to.include({ n: 1, kind: 'success', scheme: 'http', method: 'GET', ua: 'curl/8.0' });
    expect(ping).to.include({ remoteAddr: '127.0.0.1', rid: null, exitStatus: null, body: null });
    expect(ping.created).to.deep.equal(T0);
  });

  it('accepts a trailing slash', async () => {
    const check = await buildCheck(project);
    const res = await http().post(`/ping/${check._id}/`);
    expect(res.status).to.equal(200);
    expect((await onlyPing(check._id)).kind).to.equal('success');
  });

  it('records HEAD as HEAD and answers it without a body', async () => {
    const check = await buildCheck(project);
    const res = await http().head(`/ping/${check._id}`);
    expect(res.status).to.equal(200);
    expect(res.text ?? '').to.equal('');
    expect((await onlyPing(check._id)).method).to.equal('HEAD');
  });

  it('records any other method, such as PUT, as a ping', async () => {
    const check = await buildCheck(project);
    const res = await http().put(`/ping/${check._id}`);
    expect(res.status).to.equal(200);
    expect((await onlyPing(check._id)).method).to.equal('PUT');
  });

  it('numbers consecutive pings 1, 2, 3', async () => {
    const check = await buildCheck(project);
    for (let i = 0; i < 3; i++) await http().get(`/ping/${check._id}`);
    expect((await storedPings(check._id)).map((p) => p.n)).to.deep.equal([1, 2, 3]);
    expect((await storedCheck(check._id)).nPings).to.equal(3);
  });

  it('answers 404 not found in plain text with CORS for an unknown UUID', async () => {
    const res = await http().get(`/ping/${randomUUID()}`);
    expect(res.status).to.equal(404);
    expect(res.text).to.equal('not found');
    expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).to.equal('*');
  });

  it('answers 404 for an uppercase UUID and records nothing', async () => {
    const check = await buildCheck(project);
    const res = await http().get(`/ping/${check._id.toUpperCase()}`);
    expect(res.status).to.equal(404);
    expect(await storedPings(check._id)).to.have.length(0);
  });

  it('answers 404 for a UUID without hyphens', async () => {
    const check = await buildCheck(project);
    const res = await http().get(`/ping/${check._id.replace(/-/g, '')}`);
    expect(res.status).to.equal(404);
  });

  it('answers 404 for /ping/ itself and for extra path segments', async () => {
    const check = await buildCheck(project);
    expect((await http().get('/ping/')).status).to.equal(404);
    expect((await http().get(`/ping/${check._id}/start/`)).status).to.equal(404);
    expect((await http().get(`/ping/${check._id}/a/b/c`)).status).to.equal(404);
  });

  it('answers 404 for /PING/<uuid> (paths are case-sensitive) and records nothing', async () => {
    const check = await buildCheck(project);
    const res = await http().get(`/PING/${check._id}`);
    expect(res.status).to.equal(404);
    expect(await storedPings(check._id)).to.have.length(0);
  });

  it('treats /ping/<uuid>/<word> as a slug route and answers 404', async () => {
    const check = await buildCheck(project, { slug: 'backup' });
    const res = await http().get(`/ping/${check._id}/backup`);
    expect(res.status).to.equal(404);
    expect(res.text).to.equal('not found');
    expect(await storedPings(check._id)).to.have.length(0);
  });
});
