import { expect } from 'chai';
import { UnrecoverableError } from 'bullmq';
import { Check } from '../../shared/models/check.js';
import { deadlineJobKey } from '../../shared/queues/deadlines.js';
import { systemClock } from '../../shared/clock.js';
import { flipJobId } from '../../shared/services/flips.js';
import { deadlinePayload, processDeadline } from '../../workers/deadlines.js';
import { buildCheck, buildProject, type TestProject } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { downFlips, stored } from './support.js';

/** A channel assigned to checks whose flips must notify (its document is not needed here). */
const CHANNEL_ID = '5b7e0f0e-8a5c-4d0e-9c55-2f1d3e4a6b7c';

describe('processDeadline', () => {
  let project: TestProject;
  const deps = () => ({ queues: testContext().queues, clock: systemClock });
  const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);

  beforeEach(async () => {
    project = await buildProject();
  });

  it('does nothing for a deleted check', async () => {
    const check = await buildCheck(project);
    await Check.deleteOne({ _id: check._id });
    expect(await processDeadline(deps(), check._id)).to.equal('gone');
  });

  it('does nothing for a check already stored down', async () => {
    const check = await buildCheck(project, { status: 'down', lastPing: secondsAgo(10), timeout: 1, grace: 1 });
    expect(await processDeadline(deps(), check._id)).to.equal('down');
    expect(await downFlips(check._id)).to.have.length(0);
  });

  it('does nothing for a new check with no run', async () => {
    const check = await buildCheck(project);
    expect(await processDeadline(deps(), check._id)).to.equal('none');
  });

  it('reschedules a check whose deadline has not passed', async () => {
    const check = await buildCheck(project, { status: 'up', lastPing: new Date(), timeout: 60, grace: 60 });
    expect(await processDeadline(deps(), check._id)).to.equal('rescheduled');
    const jobId = await testContext().queues.deadlines.getDeduplicationJobId(deadlineJobKey(check._id));
    const job = await testContext().queues.deadlines.getJob(String(jobId));
    expect(job?.opts.delay).to.be.within(119_000, 120_000);
  });

  it('stores down an up check past its deadline, dating the flip at the deadline', async () => {
    const lastPing = secondsAgo(10);
    const check = await buildCheck(project, { status: 'up', lastPing, timeout: 2, grace: 3, deadline: secondsAgo(5), channels: [CHANNEL_ID] });
    expect(await processDeadline(deps(), check._id)).to.equal('flipped');
    const [flip] = await downFlips(check._id);
    expect(flip).to.include({ oldStatus: 'up', reason: 'timeout', processed: null });
    expect(flip.created.getTime()).to.equal(lastPing.getTime() + 5_000);
    expect(await stored(check._id)).to.include({ status: 'down', deadline: null });
  });

  it('takes a paused check down when its run overran grace', async () => {
    const lastStart = secondsAgo(10);
    const check = await buildCheck(project, { status: 'paused', lastStart, grace: 5, deadline: secondsAgo(5) });
    expect(await processDeadline(deps(), check._id)).to.equal('flipped');
    const [flip] = await downFlips(check._id);
    expect(flip).to.include({ oldStatus: 'paused', reason: 'timeout' });
    expect(flip.created.getTime()).to.equal(lastStart.getTime() + 5_000);
  });

  it('enqueues the fan-out of the timeout flip', async () => {
    const check = await buildCheck(project, { status: 'up', lastPing: secondsAgo(10), timeout: 1, grace: 1, channels: [CHANNEL_ID] });
    await processDeadline(deps(), check._id);
    const [flip] = await downFlips(check._id);
    const job = await testContext().queues.flips.getJob(flipJobId(String(flip._id)));
    expect(job?.data).to.deep.equal({ flipId: String(flip._id) });
  });
});

describe('deadlinePayload', () => {
  it('returns the check id of a well-formed job', () => {
    expect(deadlinePayload({ data: { checkId: 'abc' } })).to.deep.equal({ checkId: 'abc' });
  });

  it('throws UnrecoverableError for a job without a check id', () => {
    for (const data of [null, {}, { checkId: '' }, { checkId: 42 }]) {
      expect(() => deadlinePayload({ data })).to.throw(UnrecoverableError, 'deadline job without a checkId');
    }
  });
});
