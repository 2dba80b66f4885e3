import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Check } from '../../../shared/models/check.js';
import { Maintenance } from '../../../shared/models/maintenance.js';
import { completeOwed } from '../../../shared/alerts/outbox.js';
import { owedFlip } from '../../../shared/checks/store.js';
import { buildChannel, buildCheck, buildProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { pendingDeadline } from '../../helpers/deadlines.js';
import { testNotifyConfig } from '../../helpers/alerts.js';

/** A down alert held by a maintenance window (shared/alerts/maintenance-hold.ts): the check's job is moved to the window's end. */
describe('holding a down alert until the end of a maintenance window', () => {
  it('moves the job to the window end itself, however long before the fan-out started (a mass of holds takes seconds to write)', async () => {
    const project = await buildProject();
    const end = new Date(Date.now() + 60_000);
    await Maintenance.create({ _id: randomUUID(), projectId: project.project._id, start: new Date(Date.now() - 60_000), end, allChecks: true, created: new Date() });
    const channel = await buildChannel(project, { kind: 'webhook', value: 'http://127.0.0.1:9/hook' });
    const check = await buildCheck(project, { status: 'down', channels: [channel._id] });
    // The fan-out's `now`, as a pass that started 30 s before it reached the hold would pass it.
    const passStarted = new Date(Date.now() - 30_000);
    const entry = owedFlip({ oldStatus: 'up', newStatus: 'down', reason: 'timeout' }, passStarted, passStarted);
    await Check.updateOne({ _id: check._id }, { $push: { outbox: entry } });
    await completeOwed({ queues: testContext().queues, notify: testNotifyConfig('http://127.0.0.1:9') }, [{ check, entry }], passStarted);
    expect((await Check.findById(check._id).lean())?.heldUntil).to.deep.equal(end);
    expect((await pendingDeadline(check._id))!.getTime()).to.be.within(end.getTime(), end.getTime() + 1000);
  });
});
