import { expect } from 'chai';
import { buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { Ping } from '../../../../shared/models/ping.js';
import { onlyPing, storedCheck, storedPings } from '../../../helpers/pings.js';

describe('ANY /ping/<ping_key>/<slug>[/{start,fail,log,<exit_status>}]', () => {
  let project: TestProject;
  beforeEach(async () => {
    project = await buildProject();
  });

  it('pings the project check with the slug: 200 OK, success, check up', async () => {
    const check = await buildCheck(project, { slug: 'db-backup_1' });
    const res = await http().get(`/ping/${project.pingKey}/db-backup_1`);
    expect(res.status).to.equal(200);
    expect(res.text).to.equal('OK');
    expect(res.headers['ping-body-limit']).to.equal('10000');
    expect((await onlyPing(check._id)).kind).to.equal('success');
    expect((await storedCheck(check._id)).status).to.equal('up');
  });

  it('routes /start, /fail and /log to their signals', async () => {
    const check = await buildCheck(project, { slug: 'job' });
    for (const s of ['start', 'log', 'fail']) await http().get(`/ping/${project.pingKey}/job/${s}`);
    expect((await storedPings(check._id)).map((p) => p.kind)).to.deep.equal(['start', 'log', 'fail']);
    expect((await storedCheck(check._id)).status).to.equal('down');
  });

  it('routes an exit status after the slug', async () => {
    const check = await buildCheck(project, { slug: 'job' });
    const res = await http().get(`/ping/${project.pingKey}/job/3`);
    expect(res.status).to.equal(200);
    expect(await onlyPing(check._id)).to.include({ kind: 'fail', exitStatus: 3 });
  });

  it('answers 400 invalid url format for an exit status over 255 on a known slug', async () => {
    const check = await buildCheck(project, { slug: 'job' });
    const res = await http().get(`/ping/${project.pingKey}/job/256`);
    expect(res.status).to.equal(400);
    expect(res.text).to.equal('invalid url format');
    expect((await storedCheck(check._id)).nPings).to.equal(0);
  });

  it('answers 400 invalid url format for a slug with uppercase letters', async () => {
    await buildCheck(project, { slug: 'job' });
    const res = await http().get(`/ping/${project.pingKey}/Job`);
    expect(res.status).to.equal(400);
    expect(res.text).to.equal('invalid url format');
    expect(res.headers['access-control-allow-origin']).to.equal('*');
  });

  it('checks uppercase before the ping key: 400 even for an unknown ping key', async () => {
    const res = await http().get('/ping/unknownunknownunknown1/Job');
    expect(res.status).to.equal(400);
  });

  it('answers 404 not found for an unknown slug', async () => {
    await buildCheck(project, { slug: 'job' });
    const res = await http().get(`/ping/${project.pingKey}/other`);
    expect(res.status).to.equal(404);
    expect(res.text).to.equal('not found');
  });

  it('answers 404 for an unknown ping key', async () => {
    await buildCheck(project, { slug: 'job' });
    expect((await http().get('/ping/unknownunknownunknown1/job')).status).to.equal(404);
    expect((await http().get('/ping/unknownunknownunknown1/job/1')).status).to.equal(404);
  });

  it('does not match a slug of another project', async () => {
    const other = await buildProject({ name: 'other' });
    const check = await buildCheck(other, { slug: 'job' });
    const res = await http().get(`/ping/${project.pingKey}/job`);
    expect(res.status).to.equal(404);
    expect((await storedCheck(check._id)).nPings).to.equal(0);
  });

  it('answers 409 ambiguous slug when two checks share it, and records nothing', async () => {
    const a = await buildCheck(project, { slug: 'job' });
    const b = await buildCheck(project, { slug: 'job' });
    const res = await http().get(`/ping/${project.pingKey}/job?create=1`);
    expect(res.status).to.equal(409);
    expect(res.text).to.equal('ambiguous slug');
    expect(await Ping.countDocuments({ checkId: { $in: [a._id, b._id] } })).to.equal(0);
    expect((await storedCheck(a._id)).nPings + (await storedCheck(b._id)).nPings).to.equal(0);
  });

  it('has no trailing-slash variant (404)', async () => {
    await buildCheck(project, { slug: 'job' });
    expect((await http().get(`/ping/${project.pingKey}/job/`)).status).to.equal(404);
    expect((await http().get(`/ping/${project.pingKey}/job/start/`)).status).to.equal(404);
  });

  it('answers 404 for characters outside [-A-Za-z0-9_] and for an unknown signal word', async () => {
    await buildCheck(project, { slug: 'job' });
    expect((await http().get(`/ping/${project.pingKey}/jo.b`)).status).to.equal(404);
    expect((await http().get(`/ping/${project.pingKey}/job/restart`)).status).to.equal(404);
  });

  it('decodes percent-escapes in the path before matching', async () => {
    const check = await buildCheck(project, { slug: 'my-job' });
    expect((await http().get(`/ping/${project.pingKey}/my%2Djob`)).status).to.equal(200);
    expect((await storedCheck(check._id)).nPings).to.equal(1);
  });

  it('answers 404 not found in plain text for a malformed percent-escape', async () => {
    const res = await http().get(`/ping/${project.pingKey}/job%E0%A4%A`);
    expect([res.status, res.text]).to.deep.equal([404, 'not found']);
  });

  it('pings an existing check normally with create=1 (200, no new check)', async () => {
    const check = await buildCheck(project, { slug: 'job' });
    const res = await http().get(`/ping/${project.pingKey}/job?create=1`);
    expect(res.status).to.equal(200);
    expect(res.text).to.equal('OK');
    expect((await storedCheck(check._id)).nPings).to.equal(1);
  });
});
