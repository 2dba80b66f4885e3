import { expect } from 'chai';
import { buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { onlyPing, storedCheck, storedPings } from '../../../helpers/pings.js';
import type { CheckDoc } from '../../../../shared/models/check.js';

/** remote_addr, scheme, ua and rid of a logged ping (docs/pinging.md, "What a ping records", "Recording a ping"), behind a trusted proxy. */
describe('ANY /ping/<uuid>: request data', () => {
  let project: TestProject;
  let check: CheckDoc;
  beforeEach(async () => {
    project = await buildProject();
    check = await buildCheck(project);
  });

  it('takes remote_addr from the X-Forwarded-For entry the trusted proxy added, not one a client wrote', async () => {
    await http(undefined, 1).get(`/ping/${check._id}`).set('X-Forwarded-For', '198.51.100.7, 203.0.113.9');
    expect((await onlyPing(check._id)).remoteAddr).to.equal('203.0.113.9');
  });

  it('believes neither X-Forwarded-For nor X-Forwarded-Proto with the default settings (TRUST_PROXY 0)', async () => {
    await http().get(`/ping/${check._id}`).set('X-Forwarded-For', '198.51.100.7').set('X-Forwarded-Proto', 'https');
    expect(await onlyPing(check._id)).to.include({ remoteAddr: '127.0.0.1', scheme: 'http' });
  });

  it('removes a :port after a dotted IPv4 address', async () => {
    await http(undefined, 1).get(`/ping/${check._id}`).set('X-Forwarded-For', '1.1.1.1:1234');
    expect((await onlyPing(check._id)).remoteAddr).to.equal('1.1.1.1');
  });

  it('keeps IPv6 and IPv4-mapped forms as given', async () => {
    await http(undefined, 1).get(`/ping/${check._id}`).set('X-Forwarded-For', '2001:db8::1');
    await http(undefined, 1).get(`/ping/${check._id}/log`).set('X-Forwarded-For', '::ffff:1.1.1.1');
    const addrs = (await storedPings(check._id)).map((p) => p.remoteAddr);
    expect(addrs).to.deep.equal(['2001:db8::1', '::ffff:1.1.1.1']);
  });

  it('uses the peer address without X-Forwarded-For', async () => {
    await http().get(`/ping/${check._id}`);
    expect((await onlyPing(check._id)).remoteAddr).to.equal('127.0.0.1');
  });

  it('takes scheme from X-Forwarded-Proto, else the connection (http)', async () => {
    await http(undefined, 1).get(`/ping/${check._id}`).set('X-Forwarded-Proto', 'https');
    expect((await onlyPing(check._id)).scheme).to.equal('https');
  });

  it('cuts ua to 200 characters and stores "" without a User-Agent', async () => {
    await http().get(`/ping/${check._id}`).set('User-Agent', 'x'.repeat(250));
    expect((await onlyPing(check._id)).ua).to.equal('x'.repeat(200));
    const other = await buildCheck(project);
    await http().get(`/ping/${other._id}`).unset('User-Agent');
    expect((await onlyPing(other._id)).ua).to.equal('');
  });

  it('stores an uppercase rid in lowercase', async () => {
    await http().get(`/ping/${check._id}?rid=0B1E5A3C-1111-4A2B-8C3D-00000000000A`);
    expect((await onlyPing(check._id)).rid).to.equal('0b1e5a3c-1111-4a2b-8c3d-00000000000a');
  });

  it('answers 400 invalid uuid format for a malformed or empty rid and records nothing', async () => {
    for (const rid of ['nope', '', '0b1e5a3c11114a2b8c3d00000000000a', '{0b1e5a3c-1111-4a2b-8c3d-00000000000a}']) {
      const res = await http().get(`/ping/${check._id}?rid=${encodeURIComponent(rid)}`);
      expect([res.status, res.text, res.headers['access-control-allow-origin']]).to.deep.equal([400, 'invalid uuid format', '*']);
    }
    expect((await storedCheck(check._id)).nPings).to.equal(0);
  });

  it('checks the exit status before the rid (400 invalid url format)', async () => {
    const res = await http().get(`/ping/${check._id}/300?rid=nope`);
    expect(res.text).to.equal('invalid url format');
  });

  it('records the rid of a log ping without effect on the run', async () => {
    await http().get(`/ping/${check._id}/log?rid=0b1e5a3c-1111-4a2b-8c3d-00000000000a`);
    expect((await onlyPing(check._id)).rid).to.equal('0b1e5a3c-1111-4a2b-8c3d-00000000000a');
    expect(await storedCheck(check._id)).to.include({ lastStart: null, lastStartRid: null });
  });
});
