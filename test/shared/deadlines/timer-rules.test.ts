import { expect } from 'chai';
import { Flip } from '../../../shared/models/flip.js';
import { Notification, type NotificationDoc } from '../../../shared/models/notification.js';
import { deadlineWorker } from '../../../shared/deadlines/process.js';
import { pauseCheck } from '../../../server/services/checks.js';
import { systemClock } from '../../../shared/clock.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { startAlertWorkers, testNotifyConfig, type TestAlertWorkers } from '../../helpers/alerts.js';
import { jsonBody, receiverPerTest } from '../../helpers/receiver.js';
import { pendingDeadline } from '../../helpers/deadlines.js';
import { waitFor } from '../../helpers/poll.js';
import { ping, stored } from '../../workers/support.js';
import { api } from '../../server/routes/support.js';

/**
 * `notify_late` and `repeat_every` end to end: pings through the real ping path, the real deadline and notify workers, alerts to a local webhook
 * receiver. Seconds are short through the stored check (the API's floor of 300 s for `repeat_every` is tested with the payload).
 */
describe('timed alerting rules (notify_late, repeat_every) through the deadline and notify workers', () => {
  const hook = receiverPerTest({ status: 200 });
  let project: TestProject;
  let workers: TestAlertWorkers;
  beforeEach(async () => {
    project = await buildProject();
    workers = startAlertWorkers(testNotifyConfig(hook.receiver.url), deadlineWorker);
  });
  afterEach(() => workers.stop(true));

  /** A check with one plain webhook channel to the receiver. */
  async function hookedCheck(fields: Parameters<typeof buildCheck>[1]) {
    const channel = await buildChannel(project, { kind: 'webhook', value: `${hook.receiver.url}/hook` });
    return buildCheck(project, { channels: [channel._id], ...fields });
  }
  /** A pending job's due moment, milliseconds (0 without one): the job's add time plus its delay, so a few milliseconds after the target. */
  const dueMs = (at: Date | null) => at?.getTime() ?? 0;
  /** The `status` (and `reminder`) of each alert received, in order. */
  const received = () => hook.receiver.requests.map((r) => jsonBody(r)).map((b) => (b.reminder ? `${b.status} ${b.reminder}` : b.status) as string);
  const until = (what: string, ok: (seen: string[]) => boolean) => waitFor(what, async () => ok(received()), 15_000);

  it('sends one late alert when the check enters its grace period, then the down alert, and records no flip for it', async () => {
    const check = await hookedCheck({ notifyLate: true, timeout: 1, grace: 2 });
    const pinged = await ping(check._id);
    // The job is due when the grace period starts, before the deadline.
    expect(dueMs(await pendingDeadline(check._id))).to.be.within(pinged.lastPing!.getTime() + 1000, pinged.lastPing!.getTime() + 1500);
    await until('the down alert', (seen) => seen.includes('down'));
    expect(received()).to.deep.equal(['late', 'down']);
    expect(jsonBody(hook.receiver.requests[0])).to.include({ uuid: check._id, event: 'late' });
    const flips = await Flip.find({ checkId: check._id }).sort({ created: 1 }).lean();
    expect(flips.map((f) => f.newStatus)).to.deep.equal(['up', 'down']);
    expect((await stored(check._id)).lateFor).to.deep.equal(pinged.lastPing && new Date(pinged.lastPing.getTime() + 1000));
  });

  it('shows the late alert in the notification log with status late and reason late', async () => {
    const check = await hookedCheck({ notifyLate: true, timeout: 1, grace: 60 });
    await ping(check._id);
    await waitFor('the late alert delivered', () => Notification.findOne({ checkId: check._id, state: 'delivered' }).lean<NotificationDoc>(), 15_000);
    const { body } = await api(project.apiKey).get(`/checks/${check._id}/notifications/`);
    expect(body.notifications).to.have.length(1);
    expect(body.notifications[0]).to.include({ status: 'late', reason: 'late', outcome: 'delivered' });
  });

  it('sends no late alert without notify_late', async () => {
    const check = await hookedCheck({ timeout: 1, grace: 1 });
    await ping(check._id);
    await until('the down alert', (seen) => seen.includes('down'));
    expect(received()).to.deep.equal(['down']);
  });

  it('reminds while the check stays down, counting, and stops when it recovers', async () => {
    const check = await hookedCheck({ repeatEvery: 1, timeout: 1, grace: 1 });
    await ping(check._id);
    await until('two reminders', (seen) => seen.includes('down 2'));
    expect(received().slice(0, 3)).to.deep.equal(['down', 'down 1', 'down 2']);
    const { body } = await api(project.apiKey).get(`/checks/${check._id}/notifications/`);
    expect(body.notifications.map((n: { reason?: string }) => n.reason ?? '')).to.include.members(['', 'reminder 1', 'reminder 2']);
    const recovered = (await ping(check._id)).lastPing!;
    // Down again after timeout + grace: no reminder was owed in between.
    await waitFor('the second down flip', async () => (await Flip.countDocuments({ checkId: check._id, newStatus: 'down' })) === 2, 15_000);
    const second = await Flip.findOne({ checkId: check._id, newStatus: 'down' }).sort({ created: -1 }).lean();
    const between = { checkId: check._id, event: 'reminder' as const, flipCreated: { $gt: recovered, $lt: second!.recorded } };
    expect(await Notification.countDocuments(between)).to.equal(0);
    expect(await Flip.countDocuments({ checkId: check._id })).to.equal(4);
  });

  it('starts reminders when a fail signal takes the check down, and stops them when it is paused', async () => {
    const check = await hookedCheck({ repeatEvery: 1, timeout: 3600, grace: 3600 });
    const failed = await ping(check._id, 'fail');
    expect(failed.remindAt).to.be.an.instanceOf(Date);
    // The fail moved the job from the deadline an hour away to the first reminder.
    expect(dueMs(await pendingDeadline(check._id))).to.be.within(failed.remindAt!.getTime(), failed.remindAt!.getTime() + 500);
    await until('a reminder', (seen) => seen.includes('down 1'));
    await pauseCheck({ clock: systemClock, queues: testContext().queues }, await stored(check._id));
    const paused = await stored(check._id);
    // The job left fires into a paused check: it owes nothing and is not put back.
    await waitFor('the reminder job to settle', async () => (await pendingDeadline(check._id)) === null, 15_000);
    expect((await stored(check._id)).remindN).to.equal(paused.remindN);
  });
});
