import { expect } from 'chai';
import { buildChannel, buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { testContext } from '../../../helpers/hooks.js';
import { Notification } from '../../../../shared/models/notification.js';
import { notifyJobId } from '../../../../shared/queues/notify.js';
import { onlyPing, storedCheck, storedFlips, storedPings, testClock, T0 } from '../../../helpers/pings.js';

const HOUR_MS = 3600_000;
const earlier = new Date(T0.getTime() - 2 * HOUR_MS);

/** docs/checks.md, "What changes a check", driven through the Pinging API. */
describe('Pinging API state transitions (docs/checks.md, "What changes a check")', () => {
  let project: TestProject;
  const ping = (path: string) => http(testClock().clock).get(path);
  beforeEach(async () => {
    project = await buildProject();
  });

  it('new + success → up, flip new→up with reason "", stored processed (no notification)', async () => {
    const check = await buildCheck(project);
    await ping(`/ping/${check._id}`);
    const [flip] = await storedFlips(check._id);
    expect(flip).to.include({ oldStatus: 'new', newStatus: 'up', reason: '' });
    expect(flip.created).to.deep.equal(T0);
    expect(flip.processed).to.deep.equal(T0);
  });

  it('up whose live status is already down + success → up, no flip, last_ping = now', async () => {
    const check = await buildCheck(project, { status: 'up', lastPing: earlier, timeout: 60, grace: 60 });
    await ping(`/ping/${check._id}`);
    const stored = await storedCheck(check._id);
    expect(stored.status).to.equal('up');
    expect(stored.lastPing).to.deep.equal(T0);
    expect(await storedFlips(check._id)).to.have.length(0);
  });

  it('down + success → up, flip down→up stored with its notification and notify job', async () => {
    const channel = await buildChannel(project);
    const check = await buildCheck(project, { status: 'down', lastPing: earlier, channels: [channel._id] });
    await ping(`/ping/${check._id}`);
    const [flip] = await storedFlips(check._id);
    expect(flip).to.include({ oldStatus: 'down', newStatus: 'up', reason: '' });
    expect(flip.processed).to.deep.equal(T0);
    const notifications = await Notification.find({ flipId: String(flip._id) }).lean();
    expect(notifications.map((n) => [n.channelId, n.status, n.state])).to.deep.equal([[channel._id, 'up', 'pending']]);
    expect(await testContext().queues.notify.getJob(notifyJobId(String(flip._id), channel._id))).to.not.equal(undefined);
    expect((await storedCheck(check._id)).status).to.equal('up');
  });

  it('paused (manual_resume false) + success → up, flip paused→up stored processed', async () => {
    const check = await buildCheck(project, { status: 'paused' });
    await ping(`/ping/${check._id}`);
    const [flip] = await storedFlips(check._id);
    expect(flip).to.include({ oldStatus: 'paused', newStatus: 'up' });
    expect(flip.processed).to.deep.equal(T0);
    expect((await storedCheck(check._id)).status).to.equal('up');
  });

  for (const from of ['new', 'up', 'paused'] as const) {
    it(`${from} + fail → down, flip reason fail, last_start cleared, no deadline`, async () => {
      const channel = await buildChannel(project);
      const check = await buildCheck(project, { status: from, lastPing: earlier, lastStart: earlier, lastStartRid: null, channels: [channel._id] });
      await ping(`/ping/${check._id}/fail`);
      const stored = await storedCheck(check._id);
      expect(stored).to.include({ status: 'down', lastStart: null, deadline: null });
      expect(stored.lastPing).to.deep.equal(T0);
      const flips = await storedFlips(check._id);
      expect(flips.map((f) => [f.oldStatus, f.newStatus, f.reason, f.processed])).to.deep.equal([[from, 'down', 'fail', T0]]);
      expect(await Notification.countDocuments({ flipId: String(flips[0]._id), channelId: channel._id, status: 'down' })).to.equal(1);
    });
  }

  it('stores the flip of a check with no channels processed, with no notification and no notify job', async () => {
    const check = await buildCheck(project, { status: 'down', lastPing: earlier });
    await ping(`/ping/${check._id}`);
    const [flip] = await storedFlips(check._id);
    expect(flip.processed).to.deep.equal(T0);
    expect(await Notification.countDocuments({ checkId: check._id })).to.equal(0);
    expect(await testContext().queues.notify.count()).to.equal(0);
  });

  it('down + fail → down, no flip, last_ping = now, last_start cleared', async () => {
    const check = await buildCheck(project, { status: 'down', lastPing: earlier, lastStart: earlier });
    await ping(`/ping/${check._id}/fail`);
    const stored = await storedCheck(check._id);
    expect(stored).to.include({ status: 'down', lastStart: null });
    expect(stored.lastPing).to.deep.equal(T0);
    expect(await storedFlips(check._id)).to.have.length(0);
  });

  it('up + start keeps status and last_ping, sets last_start and rid, pulls the deadline in', async () => {
    const check = await buildCheck(project, { status: 'up', lastPing: T0, timeout: 86400, grace: 60 });
    const rid = '5f0c4b0e-6a34-4d0e-9d8c-0b1f6f3b2a11';
    await ping(`/ping/${check._id}/start?rid=${rid}`);
    const stored = await storedCheck(check._id);
    expect(stored).to.include({ status: 'up', lastStartRid: rid });
    expect(stored.lastStart).to.deep.equal(T0);
    expect(stored.deadline).to.deep.equal(new Date(T0.getTime() + 60_000));
  });

  it('a paused check (manual_resume false) stays paused on start but its run timer is armed', async () => {
    const check = await buildCheck(project, { status: 'paused', grace: 120 });
    await ping(`/ping/${check._id}/start`);
    const stored = await storedCheck(check._id);
    expect(stored.status).to.equal('paused');
    expect(stored.deadline).to.deep.equal(new Date(T0.getTime() + 120_000));
    expect(await storedFlips(check._id)).to.have.length(0);
  });

  it('log leaves status, last_ping and the deadline as they were', async () => {
    const deadline = new Date(T0.getTime() + HOUR_MS);
    const check = await buildCheck(project, { status: 'up', lastPing: earlier, timeout: 7200, grace: 3600, deadline });
    await ping(`/ping/${check._id}/log`);
    const stored = await storedCheck(check._id);
    expect(stored).to.include({ status: 'up', nPings: 1 });
    expect([stored.lastPing, stored.deadline]).to.deep.equal([earlier, deadline]);
    expect((await onlyPing(check._id)).kind).to.equal('log');
  });

  it('paused with manual_resume logs every signal as ign and changes nothing else', async () => {
    const check = await buildCheck(project, { status: 'paused', manualResume: true });
    for (const s of ['', '/start', '/fail', '/log', '/0', '/1']) await ping(`/ping/${check._id}${s}`);
    expect((await storedPings(check._id)).map((p) => p.kind)).to.deep.equal(Array(6).fill('ign'));
    const stored = await storedCheck(check._id);
    expect(stored).to.include({ status: 'paused', nPings: 6, lastPing: null, lastStart: null, deadline: null });
    expect(await storedFlips(check._id)).to.have.length(0);
  });
});
