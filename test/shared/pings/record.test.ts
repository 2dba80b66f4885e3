import { expect } from 'chai';
import { pendingDeadline } from '../../../shared/queues/deadlines.js';
import { pendingTimer } from '../../helpers/deadlines.js';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { Check } from '../../../shared/models/check.js';
import { Ping } from '../../../shared/models/ping.js';
import { recordSignal, type PingMeta, type SignalDeps } from '../../../shared/services/signal.js';
import { storedCheck, storedFlips, storedPings, testClock, T0 } from '../../helpers/pings.js';

const meta: PingMeta = { scheme: 'http', remoteAddr: '10.0.0.1', method: 'GET', ua: '', body: null, exitStatus: null, rid: null };

describe('recordSignal', () => {
  let project: TestProject;
  let deps: SignalDeps;
  beforeEach(async () => {
    project = await buildProject();
    deps = { clock: testClock().clock, queues: testContext().queues };
  });

  it('recomputes from the stored status when the deadline worker wrote down after the read', async () => {
    const read = await buildCheck(project, { status: 'up', lastPing: new Date(T0.getTime() - 3600_000) });
    await Check.updateOne({ _id: read._id }, { $set: { status: 'down', deadline: null } });
    expect(await recordSignal(deps, read, () => 'success', meta)).to.equal(1);
    expect((await storedCheck(read._id)).status).to.equal('up');
    expect((await storedFlips(read._id)).map((f) => [f.oldStatus, f.newStatus])).to.deep.equal([['down', 'up']]);
  });

  it('logs the ping as ignored when the check was paused with manual_resume after the read', async () => {
    const read = await buildCheck(project, { status: 'up', lastPing: T0 });
    await Check.updateOne({ _id: read._id }, { $set: { status: 'paused', manualResume: true } });
    await recordSignal(deps, read, () => 'fail', meta);
    expect((await storedPings(read._id)).map((p) => p.kind)).to.deep.equal(['ign']);
    expect((await storedCheck(read._id)).status).to.equal('paused');
  });

  it('re-resolves the action against the re-read check (methods changed to POST)', async () => {
    const read = await buildCheck(project);
    await Check.updateOne({ _id: read._id }, { $set: { methods: 'POST' } });
    await recordSignal(deps, read, (c) => (c.methods === 'POST' ? 'ign' : 'success'), meta);
    expect((await storedPings(read._id))[0]!.kind).to.equal('ign');
    expect((await storedCheck(read._id)).status).to.equal('new');
  });

  it('continues after pings that arrived after the read, taking the next number', async () => {
    const read = await buildCheck(project);
    await recordSignal(deps, read, () => 'success', meta);
    expect(await recordSignal(deps, read, () => 'fail', meta)).to.equal(2);
    expect((await storedPings(read._id)).map((p) => [p.n, p.kind])).to.deep.equal([[1, 'success'], [2, 'fail']]);
    expect(await storedCheck(read._id)).to.include({ nPings: 2, status: 'down' });
  });

  it('adopts an abandoned claim: applies its recorded kind, then records the new ping', async () => {
    const read = await buildCheck(project);
    const old = new Date(T0.getTime() - 60_000);
    await Ping.create({ checkId: read._id, n: 1, created: old, kind: 'success', ...meta });
    expect(await recordSignal(deps, read, () => 'start', meta)).to.equal(2);
    const stored = await storedCheck(read._id);
    expect(stored).to.include({ nPings: 2, status: 'up' });
    expect(stored.lastPing).to.deep.equal(old);
    expect(stored.lastStart).to.deep.equal(T0);
  });

  it('returns null and leaves no ping when the check was deleted after the read', async () => {
    const read = await buildCheck(project);
    await Check.deleteOne({ _id: read._id });
    expect(await recordSignal(deps, read, () => 'success', meta)).to.equal(null);
    expect(await Ping.countDocuments({ checkId: read._id })).to.equal(0);
  });

  it("schedules the check's deadline and its one delayed timer", async () => {
    const read = await buildCheck(project, { timeout: 60, grace: 60 });
    await recordSignal(deps, read, () => 'success', meta);
    const deadline = (await Check.findById(read._id).lean())!.deadline!;
    expect(await pendingDeadline(testContext().queues.deadlines, read._id)).to.deep.equal(deadline);
    const jobs = await testContext().queues.deadlines.getJobs(['delayed', 'waiting']);
    expect(jobs.map((j) => j.id)).to.deep.equal([(await pendingTimer(read._id))?.id]);
    expect(jobs[0]?.data.at).to.equal(deadline.getTime());
  });
});
