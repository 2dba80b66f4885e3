import { expect } from 'chai';
import { deadlineWorker } from '../../../shared/deadlines/process.js';
import { scheduleDeadlines } from '../../../shared/deadlines/schedule.js';
import { buildChannel, buildCheck, buildProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { startAlertWorkers, testNotifyConfig, type TestAlertWorkers } from '../../helpers/alerts.js';
import { jsonBody, receiverPerTest } from '../../helpers/receiver.js';
import { waitFor } from '../../helpers/poll.js';
import { stored } from '../../workers/support.js';

/**
 * The end of a maintenance window releases all its held checks in one instant (docs/alerting-rules.md): the first of their deadline jobs takes
 * the others too (the `heldUntil` index), as a mass down does, through the real deadline and notify workers. No sweep runs here.
 */
describe('a maintenance window end through the deadline worker', () => {
  const hook = receiverPerTest({ status: 200 });
  let workers: TestAlertWorkers | undefined;
  afterEach(async () => {
    await workers?.stop(true);
    workers = undefined;
  });

  it('alerts every check the window held down when one of their jobs fires, each exactly once', async () => {
    const project = await buildProject();
    const channel = await buildChannel(project, { kind: 'webhook', value: `${hook.receiver.url}/hook` });
    const fields = { status: 'down' as const, lastPing: new Date(Date.now() - 60_000), channels: [channel._id], heldUntil: new Date(Date.now() - 1000) };
    const checks = await Promise.all([1, 2, 3].map(() => buildCheck(project, fields)));
    // Only the first check's job is in Redis: the others' were lost.
    await scheduleDeadlines(testContext().queues.deadlines, [{ checkId: checks[0]._id, at: new Date() }], new Date());
    workers = startAlertWorkers(testNotifyConfig(hook.receiver.url), deadlineWorker);
    await waitFor('three alerts', async () => hook.receiver.requests.length >= 3, 15_000);
    await waitFor('every held alert released', async () => (await Promise.all(checks.map((c) => stored(c._id)))).every((c) => c.heldUntil === null), 15_000);
    const received = hook.receiver.requests.map((r) => jsonBody(r)).map((b) => `${b.uuid as string} ${b.event as string}`);
    expect(received.sort()).to.deep.equal(checks.map((c) => `${c._id} resumed`).sort());
  });
});
