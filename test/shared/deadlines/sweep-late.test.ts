import { expect } from 'chai';
import { Notification } from '../../../shared/models/notification.js';
import { deadlineWorker } from '../../../shared/deadlines/process.js';
import { runSweep } from '../../../shared/deadlines/sweep.js';
import { systemClock } from '../../../shared/clock.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { startAlertWorkers, testNotifyConfig, type TestAlertWorkers } from '../../helpers/alerts.js';
import { jsonBody, receiverPerTest } from '../../helpers/receiver.js';
import { pendingDeadline, pendingTimer } from '../../helpers/deadlines.js';
import { waitFor } from '../../helpers/poll.js';
import { TEST_SWEEP_INTERVAL_MS, ping, queueIdle, stored } from '../../workers/support.js';

/**
 * The sweep repairs a lost late-warning job (`notify_late`, docs/alerting-rules.md): the job is put back at the grace start, not at the deadline,
 * and the real deadline and notify workers then send the `late` alert exactly once.
 */
describe('runSweep and a lost notify_late job, through the deadline and notify workers', () => {
  const hook = receiverPerTest({ status: 200 });
  let project: TestProject;
  let workers: TestAlertWorkers | undefined;
  const deps = () => ({ queues: testContext().queues, clock: systemClock, settings: { deadlineConcurrency: 1, sweepIntervalMs: TEST_SWEEP_INTERVAL_MS } });
  beforeEach(async () => {
    project = await buildProject();
  });
  afterEach(async () => {
    await workers?.stop(true);
    workers = undefined;
  });

  /** A notify_late check with one webhook channel to the receiver. */
  async function lateCheck(fields: Parameters<typeof buildCheck>[1]) {
    const channel = await buildChannel(project, { kind: 'webhook', value: `${hook.receiver.url}/hook` });
    return buildCheck(project, { notifyLate: true, channels: [channel._id], ...fields });
  }

  /** Starts the workers, waits for the late alert and for both queues to settle, sweeps again, and returns what the receiver got. */
  async function lateAlertsAfterWorkers(checkId: string): Promise<string[]> {
    workers = startAlertWorkers(testNotifyConfig(hook.receiver.url), deadlineWorker);
    await waitFor('the late alert delivered', () => Notification.findOne({ checkId, event: 'late', state: 'delivered' }).lean(), 15_000);
    // Warned once: the next sweep has nothing due within its horizon (the deadline is a minute or more away).
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 0, notifications: 0 });
    const { deadlines, notify } = testContext().queues;
    await waitFor('the queues to settle', async () => (await queueIdle(notify)) && Object.values(await deadlines.getJobCounts('wait', 'active')).every((n) => n === 0), 15_000);
    expect(await Notification.countDocuments({ checkId, event: 'late' })).to.equal(1);
    return hook.receiver.requests.map((r) => jsonBody(r)).map((b) => `${b.uuid as string} ${b.status as string}`);
  }

  it('puts a removed job back at the grace start, and the late alert is sent exactly once', async () => {
    const check = await lateCheck({ timeout: 1, grace: 60 });
    const { lastPing } = await ping(check._id);
    await (await pendingTimer(check._id))!.remove();
    // The deadline is a minute away, beyond the horizon: only the late warning's moment brings the job back now.
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 1, flips: 0, notifications: 0 });
    const lateAt = lastPing!.getTime() + 1000;
    expect((await pendingDeadline(check._id))!.getTime()).to.be.within(lateAt, lateAt + 1000);
    expect(await lateAlertsAfterWorkers(check._id)).to.deep.equal([`${check._id} late`]);
    expect((await stored(check._id)).lateFor).to.deep.equal(new Date(lateAt));
  });

  it('replaces a lost job whose grace start passed more than ten seconds ago by one due now, and warns once', async () => {
    const lastPing = new Date(Date.now() - 75_000);
    const deadline = new Date(lastPing.getTime() + 3_660_000);
    const check = await lateCheck({ status: 'up', timeout: 60, grace: 3600, lastPing, deadline });
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 1, flips: 0, notifications: 0 });
    expect((await pendingTimer(check._id))?.delay).to.equal(0);
    expect(await lateAlertsAfterWorkers(check._id)).to.deep.equal([`${check._id} late`]);
    expect((await stored(check._id)).lateFor).to.deep.equal(new Date(lastPing.getTime() + 60_000));
  });

  it('adds no job for a notify_late check already warned whose deadline is beyond the horizon', async () => {
    const lastPing = new Date(Date.now() - 75_000);
    const warned = { lateFor: new Date(lastPing.getTime() + 60_000), deadline: new Date(lastPing.getTime() + 3_660_000) };
    const check = await lateCheck({ status: 'up', timeout: 60, grace: 3600, lastPing, ...warned });
    expect(await runSweep(deps())).to.deep.equal({ deadlines: 0, flips: 0, notifications: 0 });
    expect(await pendingTimer(check._id)).to.equal(undefined);
  });
});
