import { expect } from 'chai';
import { buildChannel, buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { Check } from '../../../../shared/models/check.js';
import { UUID_RE } from '../../../../shared/domain/ids.js';
import { onlyPing, storedPings, testClock, T0 } from '../../../helpers/pings.js';

describe('ANY /ping/<ping_key>/<slug>?create=1 (auto-provisioning)', () => {
  let project: TestProject;
  beforeEach(async () => {
    project = await buildProject({ checkLimit: 2 });
  });

  it('creates the missing check and answers 201 Created', async () => {
    const res = await http().get(`/ping/${project.pingKey}/nightly?create=1`);
    expect(res.status).to.equal(201);
    expect(res.text).to.equal('Created');
    expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).to.equal('*');
  });

  it('gives the new check name = slug = the slug and the defaults of a new check (docs/checks.md, "A new check")', async () => {
    await http(testClock().clock).get(`/ping/${project.pingKey}/nightly?create=1`);
    const check = (await Check.findOne({ projectId: project.project._id }).lean())!;
    expect(check).to.include({ name: 'nightly', slug: 'nightly', tags: '', desc: '', kind: 'simple' });
    expect(check).to.include({ timeout: 86400, grace: 3600, schedule: '* * * * *', tz: 'UTC', methods: '' });
    expect(check).to.include({ manualResume: false, filterHttpBody: false, successKw: '' });
    expect(check._id).to.match(UUID_RE);
    expect(check.badgeKey).to.match(UUID_RE).and.not.equal(check._id);
    expect(check.created).to.deep.equal(T0);
  });

  it('records the ping on the new check, which goes up', async () => {
    await http(testClock().clock).get(`/ping/${project.pingKey}/nightly?create=1`);
    const check = (await Check.findOne({ projectId: project.project._id }).lean())!;
    expect(check).to.include({ status: 'up', nPings: 1 });
    expect(check.lastPing).to.deep.equal(T0);
    expect(await onlyPing(check._id)).to.include({ n: 1, kind: 'success' });
  });

  it('assigns all the project channels to the new check', async () => {
    const a = await buildChannel(project);
    const b = await buildChannel(project, { kind: 'webhook' });
    await buildChannel(await buildProject({ name: 'other' }));
    await http().get(`/ping/${project.pingKey}/nightly?create=1`);
    const check = (await Check.findOne({ projectId: project.project._id }).lean())!;
    expect([...check.channels].sort()).to.deep.equal([a._id, b._id].sort());
  });

  it('works for every signal kind, such as /start and an exit status', async () => {
    await http().get(`/ping/${project.pingKey}/a/start?create=1`);
    await http().get(`/ping/${project.pingKey}/b/7?create=1`);
    const a = (await Check.findOne({ slug: 'a' }).lean())!;
    const b = (await Check.findOne({ slug: 'b' }).lean())!;
    expect(await onlyPing(a._id)).to.include({ kind: 'start' });
    expect(await onlyPing(b._id)).to.include({ kind: 'fail', exitStatus: 7 });
  });

  it('honours only the exact value 1 (create=true gives 404)', async () => {
    const res = await http().get(`/ping/${project.pingKey}/nightly?create=true`);
    expect(res.status).to.equal(404);
    expect(await Check.countDocuments({})).to.equal(0);
  });

  it('answers 404 for an unknown ping key', async () => {
    const res = await http().get('/ping/unknownunknownunknown1/nightly?create=1');
    expect(res.status).to.equal(404);
    expect(await Check.countDocuments({})).to.equal(0);
  });

  it('answers 404 once the project has twice its check limit', async () => {
    for (let i = 0; i < 4; i++) await buildCheck(project, { slug: `c${i}` });
    const res = await http().get(`/ping/${project.pingKey}/nightly?create=1`);
    expect(res.status).to.equal(404);
    expect(res.text).to.equal('not found');
    expect(await Check.countDocuments({})).to.equal(4);
  });

  it('still creates below twice the check limit', async () => {
    for (let i = 0; i < 3; i++) await buildCheck(project, { slug: `c${i}` });
    expect((await http().get(`/ping/${project.pingKey}/nightly?create=1`)).status).to.equal(201);
  });

  it('checks rid before creating: 400 invalid uuid format and no check left behind', async () => {
    const res = await http().get(`/ping/${project.pingKey}/nightly?create=1&rid=nope`);
    expect(res.status).to.equal(400);
    expect(res.text).to.equal('invalid uuid format');
    expect(await Check.countDocuments({})).to.equal(0);
  });

  it('checks the exit status before creating: 400 invalid url format and no check left behind', async () => {
    const res = await http().get(`/ping/${project.pingKey}/nightly/300?create=1`);
    expect(res.status).to.equal(400);
    expect(res.text).to.equal('invalid url format');
    expect(await Check.countDocuments({})).to.equal(0);
  });

  it('is ignored on UUID routes', async () => {
    const res = await http().get('/ping/2d2d1a5e-0a5c-4c8e-8f6e-7d1f3c7a0b11?create=1');
    expect(res.status).to.equal(404);
    expect(await Check.countDocuments({})).to.equal(0);
  });

  it('creates one check for simultaneous first pings; the others ping it (200)', async () => {
    const agent = http();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => agent.get(`/ping/${project.pingKey}/nightly?create=1`)),
    );
    expect(results.map((r) => r.status).sort()).to.deep.equal([200, 200, 200, 200, 200, 201]);
    const checks = await Check.find({ slug: 'nightly' }).lean();
    expect(checks).to.have.length(1);
    expect((await storedPings(checks[0]._id)).map((p) => p.n)).to.deep.equal([1, 2, 3, 4, 5, 6]);
  });
});
