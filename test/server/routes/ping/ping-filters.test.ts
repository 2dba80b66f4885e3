import { expect } from 'chai';
import { buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { onlyPing, storedCheck, storedPings } from '../../../helpers/pings.js';
import type { CheckDoc } from '../../../../shared/models/check.js';

const keywords: Partial<CheckDoc> = { filterHttpBody: true, successKw: 'SUCCESS, OK', failureKw: 'ERROR', startKw: 'BEGIN' };

/** methods=POST (docs/pinging.md, "Recording a ping") and the HTTP body keyword filter (docs/pinging.md, "Body keywords"). */
describe('ANY /ping/<uuid>: methods and body filters', () => {
  let project: TestProject;
  const post = (path: string, body: string) => http().post(path).set('Content-Type', 'text/plain').send(body);
  beforeEach(async () => {
    project = await buildProject();
  });

  it('methods=POST logs GET and HEAD pings as ign, counts them, and leaves the check alone', async () => {
    const check = await buildCheck(project, { methods: 'POST' });
    expect((await http().get(`/ping/${check._id}`)).status).to.equal(200);
    await http().head(`/ping/${check._id}/fail`);
    expect((await storedPings(check._id)).map((p) => p.kind)).to.deep.equal(['ign', 'ign']);
    expect(await storedCheck(check._id)).to.include({ status: 'new', nPings: 2 });
  });

  it('methods=POST accepts a POST ping', async () => {
    const check = await buildCheck(project, { methods: 'POST' });
    await http().post(`/ping/${check._id}`);
    expect((await onlyPing(check._id)).kind).to.equal('success');
  });

  it('classifies a failure keyword as fail, before success keywords', async () => {
    const check = await buildCheck(project, keywords);
    await post(`/ping/${check._id}`, 'OK but ERROR in step 2');
    expect((await onlyPing(check._id)).kind).to.equal('fail');
    expect((await storedCheck(check._id)).status).to.equal('down');
  });

  it('reclassifies /start, /log and exit-status pings from the body', async () => {
    const check = await buildCheck(project, keywords);
    await post(`/ping/${check._id}/start`, 'all OK');
    await post(`/ping/${check._id}/log`, 'ERROR');
    await post(`/ping/${check._id}/1`, 'BEGIN');
    expect((await storedPings(check._id)).map((p) => p.kind)).to.deep.equal(['success', 'fail', 'start']);
  });

  it('logs a body matching no keyword as ign', async () => {
    const check = await buildCheck(project, keywords);
    await post(`/ping/${check._id}`, 'nothing to see');
    expect((await onlyPing(check._id)).kind).to.equal('ign');
    expect((await storedCheck(check._id)).status).to.equal('new');
  });

  it('turns no match into fail with filter_default_fail', async () => {
    const check = await buildCheck(project, { ...keywords, filterDefaultFail: true });
    await http().get(`/ping/${check._id}`);
    expect((await onlyPing(check._id)).kind).to.equal('fail');
  });

  it('matches case-sensitively', async () => {
    const check = await buildCheck(project, keywords);
    await post(`/ping/${check._id}`, 'error, ok');
    expect((await onlyPing(check._id)).kind).to.equal('ign');
  });

  it('decodes invalid UTF-8 leniently and still finds the keywords', async () => {
    const check = await buildCheck(project, keywords);
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(' ERROR')]);
    await http().post(`/ping/${check._id}`).set('Content-Type', 'application/octet-stream').send(body);
    expect((await onlyPing(check._id)).kind).to.equal('fail');
  });

  it('does not apply the body filter to an ignored (non-POST) ping', async () => {
    const check = await buildCheck(project, { ...keywords, methods: 'POST', filterDefaultFail: true });
    await http().put(`/ping/${check._id}`).send('ERROR');
    expect((await onlyPing(check._id)).kind).to.equal('ign');
  });

  it('ignores the email filters for HTTP pings', async () => {
    const check = await buildCheck(project, { filterSubject: true, filterBody: true, failureKw: 'ERROR' });
    await post(`/ping/${check._id}`, 'ERROR');
    expect((await onlyPing(check._id)).kind).to.equal('success');
  });
});
