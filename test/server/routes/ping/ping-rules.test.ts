import { expect } from 'chai';
import { buildChannel, buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { Notification } from '../../../../shared/models/notification.js';
import type { CheckDoc } from '../../../../shared/models/check.js';
import type { ChannelDoc } from '../../../../shared/models/channel.js';
import { applyDeadlines } from '../../../../shared/deadlines/process.js';
import { systemClock } from '../../../../shared/clock.js';
import { testContext } from '../../../helpers/hooks.js';
import { storedCheck, storedFlips, storedPings, testClock, type TestClock } from '../../../helpers/pings.js';
import { api } from '../support.js';

/** Alerting rules 1–3 (docs/alerting-rules.md) through the Pinging API, the check store and the outbox, on the real database. */
describe('Pinging API with alerting rules', () => {
  let p: TestProject;
  let channel: ChannelDoc;
  let tc: TestClock;
  const ping = (path: string) => http(tc.clock).get(path);
  const statusOf = async (check: CheckDoc) => (await storedCheck(check._id)).status;
  const log = async (check: CheckDoc) => (await api(p.apiKey).get(`/checks/${check._id}/notifications/`)).body.notifications as Record<string, unknown>[];
  beforeEach(async () => {
    p = await buildProject();
    channel = await buildChannel(p, { kind: 'webhook', value: 'http://127.0.0.1:9/hook' });
    tc = testClock();
  });

  it('fail_threshold 3: two failures are logged as fail pings with the check up and no alert; the third flips down and alerts once', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: tc.now, channels: [channel._id], failThreshold: 3 });
    await ping(`/ping/${check._id}/fail`);
    tc.advance(10);
    await ping(`/ping/${check._id}/1`);
    expect((await storedPings(check._id)).map((ping) => ping.kind)).to.deep.equal(['fail', 'fail']);
    expect([await statusOf(check), await storedFlips(check._id), await log(check)]).to.deep.equal(['up', [], []]);
    tc.advance(10);
    await ping(`/ping/${check._id}/fail`);
    expect(await statusOf(check)).to.equal('down');
    const [flip] = await storedFlips(check._id);
    expect(flip).to.deep.include({ newStatus: 'down', reason: 'fail', marks: ['threshold'] });
    const [alert] = await log(check);
    expect(alert).to.include({ status: 'down', reason: 'threshold reached' });
    expect(await Notification.countDocuments({ checkId: check._id })).to.equal(1);
  });

  it('fail_threshold: a success in between starts the count again', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: tc.now, failThreshold: 2 });
    for (const path of ['/fail', '', '/fail']) await ping(`/ping/${check._id}${path}`);
    expect(await statusOf(check)).to.equal('up');
  });

  it('fail_window: the n-th failure within the window flips down, successes in between or not', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: tc.now, failThreshold: 2, failWindow: 60 });
    await ping(`/ping/${check._id}/fail`);
    tc.advance(61);
    await ping(`/ping/${check._id}/fail`);
    expect(await statusOf(check)).to.equal('up');
    tc.advance(30);
    await ping(`/ping/${check._id}`);
    await ping(`/ping/${check._id}/fail`);
    expect(await statusOf(check)).to.equal('down');
  });

  it('a failure keyword in the body (filter_http_body) counts toward the threshold', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: tc.now, failThreshold: 2, filterHttpBody: true, failureKw: 'ERROR' });
    const post = () => http(tc.clock).post(`/ping/${check._id}`).send('backup ERROR: disk full');
    await post();
    expect(await statusOf(check)).to.equal('up');
    await post();
    expect(await statusOf(check)).to.equal('down');
  });

  it('a missed deadline flips down at once, whatever the threshold, with the usual timeout flip', async () => {
    const lastPing = new Date(Date.now() - 10_000);
    const check = await buildCheck(p, { status: 'up', lastPing, timeout: 1, grace: 1, failThreshold: 5, channels: [channel._id] });
    await applyDeadlines({ queues: testContext().queues, clock: systemClock }, [check._id]);
    expect(await statusOf(check)).to.equal('down');
    const [flip] = await storedFlips(check._id);
    expect(flip).to.include({ reason: 'timeout' });
    expect(flip).to.not.have.property('marks');
    expect(await log(check)).to.have.length(1);
    expect((await log(check))[0]).to.not.have.property('reason');
  });

  it('min_duration: a success after a too short run is a fail ping and flips down "ran too fast"; a long enough run stays up', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: tc.now, minDuration: 60, channels: [channel._id] });
    await ping(`/ping/${check._id}/start`);
    tc.advance(90);
    await ping(`/ping/${check._id}`);
    expect(await statusOf(check)).to.equal('up');
    await ping(`/ping/${check._id}/start`);
    tc.advance(5);
    await ping(`/ping/${check._id}`);
    expect((await storedPings(check._id)).map((ping) => ping.kind)).to.deep.equal(['start', 'success', 'start', 'fail']);
    expect(await storedCheck(check._id)).to.include({ status: 'down', lastDurationMs: 5000 });
    expect((await log(check))[0]).to.include({ status: 'down', reason: 'ran too fast' });
  });

  it('min_interval: a success sooner than the interval after the previous one flips down "ran too often"; a later one recovers', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: tc.now, minInterval: 300, channels: [channel._id] });
    await ping(`/ping/${check._id}`);
    tc.advance(10);
    await ping(`/ping/${check._id}`);
    expect(await statusOf(check)).to.equal('down');
    tc.advance(300);
    await ping(`/ping/${check._id}`);
    expect(await statusOf(check)).to.equal('up');
    const rows = await log(check);
    expect(rows.map((row) => [row.status, row.reason])).to.deep.equal([['up', undefined], ['down', 'ran too often']]);
  });

  it('the flips list keeps exactly its two keys for a flip with marks', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: tc.now, minInterval: 300 });
    await ping(`/ping/${check._id}`);
    await ping(`/ping/${check._id}`);
    const res = await api(p.apiKey).get(`/checks/${check._id}/flips/`);
    expect(res.body.map((flip: object) => Object.keys(flip))).to.deep.equal([['timestamp', 'up']]);
  });

  it('a check without rules flips down on its first failure, with no marks anywhere', async () => {
    const check = await buildCheck(p, { status: 'up', lastPing: tc.now, channels: [channel._id] });
    await ping(`/ping/${check._id}/fail`);
    const [flip] = await storedFlips(check._id);
    expect(flip).to.not.have.property('marks');
    expect(Object.keys((await log(check))[0])).to.not.include('reason');
    expect(await storedCheck(check._id)).to.not.have.any.keys('failRun', 'lastSuccess');
  });
});
