import { expect } from 'chai';
import { buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { bodyBytes, onlyPing } from '../../../helpers/pings.js';

/** Ping bodies (seed: first 10 kB; docs/pinging.md, "Recording a ping"). */
describe('ANY /ping/<uuid> with a request body', () => {
  let project: TestProject;
  beforeEach(async () => {
    project = await buildProject();
  });

  it('stores a POST body byte for byte', async () => {
    const check = await buildCheck(project);
    await http().post(`/ping/${check._id}`).set('Content-Type', 'text/plain').send('backup done: 42 files');
    expect(bodyBytes(await onlyPing(check._id))?.toString('utf8')).to.equal('backup done: 42 files');
  });

  it('keeps the first 10000 bytes of a larger body and still answers 200', async () => {
    const check = await buildCheck(project);
    const body = Buffer.alloc(25_000, 'a');
    body.fill('b', 10_000);
    const res = await http().post(`/ping/${check._id}`).set('Content-Type', 'application/octet-stream').send(body);
    expect(res.status).to.equal(200);
    expect(bodyBytes(await onlyPing(check._id))).to.deep.equal(body.subarray(0, 10_000));
  });

  it('stores invalid UTF-8 exactly as sent', async () => {
    const check = await buildCheck(project);
    const body = Buffer.from([0x66, 0x6f, 0xff, 0xfe, 0x80, 0x6f]);
    await http().post(`/ping/${check._id}`).set('Content-Type', 'application/octet-stream').send(body);
    expect(bodyBytes(await onlyPing(check._id))).to.deep.equal(body);
  });

  it('does not parse JSON: a malformed JSON body is stored as text', async () => {
    const check = await buildCheck(project);
    const res = await http().post(`/ping/${check._id}`).set('Content-Type', 'application/json').send('{"broken":');
    expect(res.status).to.equal(200);
    expect(bodyBytes(await onlyPing(check._id))?.toString()).to.equal('{"broken":');
  });

  it('stores the body of any method, such as PUT', async () => {
    const check = await buildCheck(project);
    await http().put(`/ping/${check._id}/fail`).set('Content-Type', 'text/plain').send('disk full');
    const ping = await onlyPing(check._id);
    expect(ping).to.include({ method: 'PUT', kind: 'fail' });
    expect(bodyBytes(ping)?.toString()).to.equal('disk full');
  });

  it('stores no body (null) for an empty POST', async () => {
    const check = await buildCheck(project);
    await http().post(`/ping/${check._id}`).set('Content-Length', '0');
    expect(bodyBytes(await onlyPing(check._id))).to.equal(null);
  });

  it('stores no body for a GET', async () => {
    const check = await buildCheck(project);
    await http().get(`/ping/${check._id}`);
    expect(bodyBytes(await onlyPing(check._id))).to.equal(null);
  });
});
