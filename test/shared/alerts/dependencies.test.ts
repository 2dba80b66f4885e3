import { expect } from 'chai';
import { buildChannel, buildCheck, buildProject, http, type TestProject } from '../../helpers/factories.js';
import { Notification } from '../../../shared/models/notification.js';
import type { CheckDoc } from '../../../shared/models/check.js';
import type { ChannelDoc } from '../../../shared/models/channel.js';
import { changeCheck, owedFlip } from '../../../shared/checks/store.js';
import { completeOwed } from '../../../shared/alerts/outbox.js';
import { HELD_ERROR } from '../../../shared/alerts/dependencies.js';
import { applyDeadlines } from '../../../shared/deadlines/process.js';
import { systemClock } from '../../../shared/clock.js';
import { config } from '../../../shared/config.js';
import { testContext } from '../../helpers/hooks.js';
import { storedCheck, storedFlips } from '../../helpers/pings.js';
import { startReceiver, jsonBody, type Receiver } from '../../helpers/receiver.js';
import { startAlertWorkers, testNotifyConfig, type TestAlertWorkers } from '../../helpers/alerts.js';
import { waitFor } from '../../helpers/poll.js';
import { api } from '../../server/routes/support.js';

/** Dependent checks (docs/alerting-rules.md, `depends_on`): pings over HTTP, the store, the outbox and the deadline path on the real database. */
describe('depends_on: alerts held back while a parent is down', () => {
  let p: TestProject;
  let channel: ChannelDoc;
  const ping = (check: CheckDoc, path = '') => http().get(`/ping/${check._id}${path}`);
  const log = async (check: CheckDoc) =>
    (await api(p.apiKey).get(`/checks/${check._id}/notifications/`)).body.notifications as Record<string, unknown>[];
  const rows = async (check: CheckDoc) => (await log(check)).map((n) => [n.status, n.outcome, n.reason]);
  beforeEach(async () => {
    p = await buildProject();
    channel = await buildChannel(p, { kind: 'webhook', value: 'http://127.0.0.1:9/hook' });
  });
  const parentCheck = (fields: Partial<CheckDoc> = {}) => buildCheck(p, { status: 'down', lastPing: new Date(), channels: [channel._id], ...fields });
  const child = (parents: CheckDoc[], fields: Partial<CheckDoc> = {}) =>
    buildCheck(p, { status: 'up', lastPing: new Date(), channels: [channel._id], dependsOn: parents.map((c) => c._id), ...fields });

  it('holds back the down alert while the parent is down: flip recorded and marked, alert logged as skipped "parent down"', async () => {
    const router = await parentCheck();
    const job = await child([router]);
    await ping(job, '/fail');
    expect((await storedCheck(job._id)).status).to.equal('down');
    const [flip] = await storedFlips(job._id);
    expect(flip).to.deep.include({ newStatus: 'down', marks: ['parent_down'] });
    const [row] = await log(job);
    expect(row).to.include({ status: 'down', outcome: 'skipped', reason: 'parent down', error: HELD_ERROR });
    expect(await testContext().queues.notify.count()).to.equal(0);
    expect((await storedCheck(job._id)).held).to.include({ flipId: String(flip._id) });
  });

  it('alerts once when the parent recovers and the check is still down, with no extra flip', async () => {
    const router = await parentCheck();
    const job = await child([router]);
    await ping(job, '/fail');
    await ping(router);
    expect(await rows(job)).to.deep.equal([['down', 'pending', 'parent down; sent when its parents were up again'], ['down', 'skipped', 'parent down']]);
    expect(await storedFlips(job._id)).to.have.length(1);
    expect((await storedCheck(job._id)).held).to.equal(null);
    await ping(router, '/fail');
    await ping(router);
    expect(await log(job)).to.have.length(2);
  });

  it('completing the parent\'s recovery again (a retry after a crash) releases nothing more', async () => {
    const router = await parentCheck();
    const job = await child([router]);
    await ping(job, '/fail');
    const now = new Date();
    const entry = owedFlip({ oldStatus: 'down', newStatus: 'up', reason: '' }, now, now);
    const done = await changeCheck(router._id, () => ({ change: { set: { status: 'up' }, owe: [entry] }, result: null }));
    const deps = { queues: testContext().queues, notify: config.notify };
    await completeOwed(deps, [{ check: done!.check, entry }], now);
    await completeOwed(deps, [{ check: done!.check, entry }], now);
    expect(await rows(job)).to.have.length(2);
    expect((await storedCheck(job._id)).outbox).to.deep.equal([]);
  });

  it('never holds a recovery: the check recovering while the parent is down alerts "up", and the parent\'s recovery then sends nothing', async () => {
    const router = await parentCheck();
    const job = await child([router]);
    await ping(job, '/fail');
    await ping(job);
    expect((await rows(job))[0]).to.deep.equal(['up', 'pending', undefined]);
    await ping(router);
    expect(await log(job)).to.have.length(2);
  });

  it('with two parents, waits until both are up', async () => {
    const [a, b] = [await parentCheck(), await parentCheck()];
    const job = await child([a, b]);
    await ping(job, '/fail');
    await ping(a);
    expect(await log(job)).to.have.length(1);
    await ping(b);
    expect((await log(job)).map((n) => n.outcome)).to.deep.equal(['pending', 'skipped']);
  });

  it('releases the held alert when the parent is paused or deleted (neither is down)', async () => {
    for (const leave of ['pause', 'delete'] as const) {
      const router = await parentCheck();
      const job = await child([router]);
      await ping(job, '/fail');
      const res = leave === 'pause' ? await api(p.apiKey).post(`/checks/${router._id}/pause`) : await api(p.apiKey).delete(`/checks/${router._id}`);
      expect(res.status).to.equal(200);
      expect((await rows(job))[0]).to.deep.equal(['down', 'pending', 'parent down; sent when its parents were up again']);
    }
  });

  it('alerts at once when the parents are up', async () => {
    const router = await parentCheck({ status: 'up' });
    const job = await child([router]);
    await ping(job, '/fail');
    expect(await rows(job)).to.deep.equal([['down', 'pending', undefined]]);
    expect((await storedCheck(job._id)).held).to.equal(undefined);
  });

  it('a router and its job missing their deadlines in one pass: only the router alerts, the job when the router is back', async () => {
    const lastPing = new Date(Date.now() - 10_000);
    const router = await parentCheck({ status: 'up', lastPing, timeout: 1, grace: 1 });
    const job = await child([router], { lastPing, timeout: 1, grace: 1 });
    await applyDeadlines({ queues: testContext().queues, clock: systemClock }, [job._id, router._id]);
    expect(await rows(router)).to.deep.equal([['down', 'pending', undefined]]);
    expect(await rows(job)).to.deep.equal([['down', 'skipped', 'parent down']]);
    await ping(router);
    expect((await rows(job))[0]).to.deep.equal(['down', 'pending', 'parent down; sent when its parents were up again']);
  });

  describe('delivery through the alert workers', () => {
    let receiver: Receiver;
    let workers: TestAlertWorkers;
    beforeEach(async () => {
      receiver = await startReceiver();
    });
    afterEach(async () => {
      await workers.stop();
      await receiver.close();
    });

    it('delivers the released alert exactly once, as a down alert of the job', async () => {
      const hook = await buildChannel(p, { kind: 'webhook', value: `${receiver.url}/hook` });
      const router = await parentCheck({ channels: [] });
      const job = await child([router], { channels: [hook._id] });
      workers = startAlertWorkers(testNotifyConfig(receiver.url));
      await ping(job, '/fail');
      await ping(router);
      await waitFor('the released alert delivered', async () => (await Notification.countDocuments({ checkId: job._id, state: 'delivered' })) === 1);
      expect(receiver.requests).to.have.length(1);
      expect(jsonBody(receiver.requests[0])).to.include({ uuid: job._id, status: 'down' });
    });
  });
});
