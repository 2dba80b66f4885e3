import { expect } from 'chai';
import { systemClock } from '../../../shared/clock.js';
import { runSweep } from '../../../shared/deadlines/sweep.js';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { pendingDeadline } from '../../helpers/deadlines.js';
import { TEST_SWEEP_INTERVAL_MS } from '../../workers/support.js';

/** The sweep puts back the jobs Redis lost of a down check's next reminder and of a held alert's window end. */
describe('runSweep and the timed alerting rules', () => {
  let project: TestProject;
  const deps = () => ({ queues: testContext().queues, clock: systemClock, settings: { deadlineConcurrency: 1, sweepIntervalMs: TEST_SWEEP_INTERVAL_MS } });
  const inMs = (ms: number) => new Date(Date.now() + ms);
  beforeEach(async () => {
    project = await buildProject();
  });

  it('adds the lost job of a reminder due within the horizon, at the reminder', async () => {
    const remindAt = inMs(1000);
    const check = await buildCheck(project, { status: 'down', repeatEvery: 300, remindAt, remindN: 0 });
    await runSweep(deps());
    expect((await pendingDeadline(check._id))!.getTime()).to.be.within(remindAt.getTime(), remindAt.getTime() + 1000);
  });

  it('adds no reminder job for a check that recovered or has no repeat_every', async () => {
    const up = await buildCheck(project, { status: 'up', repeatEvery: 300, remindAt: inMs(1000) });
    const off = await buildCheck(project, { status: 'down', repeatEvery: null, remindAt: inMs(1000) });
    await runSweep(deps());
    expect([await pendingDeadline(up._id), await pendingDeadline(off._id)]).to.deep.equal([null, null]);
  });

  it('adds the lost job of a held alert at its window end', async () => {
    const heldUntil = inMs(1000);
    const check = await buildCheck(project, { status: 'down', heldUntil });
    await runSweep(deps());
    expect((await pendingDeadline(check._id))!.getTime()).to.be.within(heldUntil.getTime(), heldUntil.getTime() + 1000);
  });
});
