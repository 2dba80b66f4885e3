import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Flip } from '../../../shared/models/flip.js';
import { Maintenance, type MaintenanceDoc } from '../../../shared/models/maintenance.js';
import { deadlineWorker } from '../../../shared/deadlines/process.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { startAlertWorkers, testNotifyConfig, type TestAlertWorkers } from '../../helpers/alerts.js';
import { jsonBody, receiverPerTest } from '../../helpers/receiver.js';
import { waitFor } from '../../helpers/poll.js';
import { ping, stored, wentDown } from '../../workers/support.js';
import { api } from '../../server/routes/support.js';

/**
 * Maintenance windows end to end: pings through the real ping path, the real deadline and notify workers, alerts to a local webhook receiver. A
 * window of a few seconds is written straight to MongoDB; nothing asserts how long anything took.
 */
describe('maintenance windows through the deadline and notify workers', () => {
  const hook = receiverPerTest({ status: 200 });
  let project: TestProject;
  let workers: TestAlertWorkers;
  beforeEach(async () => {
    project = await buildProject();
    workers = startAlertWorkers(testNotifyConfig(hook.receiver.url), deadlineWorker);
  });
  afterEach(() => workers.stop(true));

  /** A one-off window of the project from a second ago to `seconds` from now, covering `scope`; returns its UUID. */
  async function window(seconds: number, scope: Partial<MaintenanceDoc> = { allChecks: true }): Promise<string> {
    const now = Date.now();
    const { _id } = await Maintenance.create({ _id: randomUUID(), projectId: project.project._id, name: 'upgrade', start: new Date(now - 1000), end: new Date(now + seconds * 1000), created: new Date(), ...scope });
    return _id;
  }
  async function hookedCheck(fields: Parameters<typeof buildCheck>[1] = {}) {
    const channel = await buildChannel(project, { kind: 'webhook', value: `${hook.receiver.url}/hook` });
    return buildCheck(project, { channels: [channel._id], timeout: 1, grace: 1, ...fields });
  }
  const log = async (uuid: string) => (await api(project.apiKey).get(`/checks/${uuid}/notifications/`)).body.notifications as Array<Record<string, string>>;

  it('records the flip marked and sends nothing inside the window, then alerts once when it ends with the check still down', async () => {
    await window(4);
    const check = await hookedCheck();
    await ping(check._id);
    await wentDown(check._id, 15_000);
    const [flip] = await Flip.find({ checkId: check._id, newStatus: 'down' }).lean();
    expect(flip.maintenance).to.equal(true);
    expect((await api(project.apiKey).get(`/checks/${check._id}`)).body).to.include({ status: 'down', maintenance: true });
    await waitFor('the alert after the window', async () => hook.receiver.requests.length > 0, 15_000);
    await waitFor('the held alert released', async () => (await stored(check._id)).heldUntil === null, 15_000);
    expect(hook.receiver.requests.map((r) => jsonBody(r))).to.have.length(1);
    expect(jsonBody(hook.receiver.requests[0])).to.include({ status: 'down', event: 'resumed' });
    const reasons = (await log(check._id)).map((n) => `${n.outcome}/${n.reason}`);
    expect(reasons).to.have.members(['skipped/in maintenance', 'delivered/maintenance ended']);
    expect((await api(project.apiKey).get(`/checks/${check._id}`)).body).to.not.have.property('maintenance');
  });

  it('owes nothing at the end for a check that went down and recovered inside the window', async () => {
    await window(3);
    const check = await hookedCheck();
    await ping(check._id);
    await wentDown(check._id, 15_000);
    await ping(check._id);
    await waitFor('the held alert released', async () => (await stored(check._id)).heldUntil === null, 15_000);
    expect(hook.receiver.requests).to.have.length(0);
    expect((await log(check._id)).map((n) => `${n.status}/${n.reason}`)).to.have.members(['down/in maintenance', 'up/in maintenance']);
  });

  it('alerts once at once when the window holding the alert is deleted through the API, not at its old end', async () => {
    const id = await window(3600);
    const check = await hookedCheck();
    await ping(check._id);
    await wentDown(check._id, 15_000);
    await waitFor('the alert held', async () => (await stored(check._id)).heldUntil instanceof Date, 15_000);
    expect((await api(project.apiKey).delete(`/maintenance/${id}`)).status).to.equal(200);
    await waitFor('the alert after the deletion', async () => hook.receiver.requests.length > 0, 15_000);
    await waitFor('the held alert released', async () => (await stored(check._id)).heldUntil === null, 15_000);
    expect(hook.receiver.requests.map((r) => jsonBody(r))).to.have.length(1);
    expect(jsonBody(hook.receiver.requests[0])).to.include({ status: 'down', event: 'resumed' });
  });

  it('covers checks by tag only', async () => {
    await window(3600, { tags: ['db'] });
    const covered = await hookedCheck({ tags: 'db prod' });
    const other = await hookedCheck({ tags: 'web' });
    await Promise.all([ping(covered._id), ping(other._id)]);
    await Promise.all([wentDown(covered._id, 15_000), wentDown(other._id, 15_000)]);
    await waitFor('the uncovered check alert', async () => hook.receiver.requests.length > 0, 15_000);
    expect(hook.receiver.requests.map((r) => jsonBody(r).uuid)).to.deep.equal([other._id]);
    expect((await stored(covered._id)).heldUntil).to.be.an.instanceOf(Date);
  });
});
