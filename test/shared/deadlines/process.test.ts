import { expect } from 'chai';
import { UnrecoverableError } from 'bullmq';
import { Types } from 'mongoose';
import { Check } from '../../shared/models/check.js';
import { pendingDeadline } from '../../shared/queues/deadlines.js';
import { pendingTimer } from '../helpers/deadlines.js';
import { systemClock } from '../../shared/clock.js';
import { Notification } from '../../shared/models/notification.js';
import { notifyJobId } from '../../shared/queues/notify.js';
import { applyDeadlines, deadlinePayload, processDeadline } from '../../workers/deadlines.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { downFlips, stored } from './support.js';

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
    const deadline = await pendingDeadline(testContext().queues.deadlines, check._id);
    expect(deadline?.getTime()).to.equal(check.lastPing!.getTime() + 120_000);
    const timer = await pendingTimer(check._id);
    expect(timer?.data.at).to.equal(deadline!.getTime());
    expect(timer?.opts.delay).to.be.within(119_000, 120_000);
  });

  it('stores down an up check past its deadline, dating the flip at the deadline', async () => {
    const lastPing = secondsAgo(10);
    const check = await buildCheck(project, { status: 'up', lastPing, timeout: 2, grace: 3, deadline: secondsAgo(5) });
    expect(await processDeadline(deps(), check._id)).to.equal('flipped');
    const [flip] = await downFlips(check._id);
    expect(flip).to.include({ oldStatus: 'up', reason: 'timeout' });
    expect(flip.processed).to.be.an.instanceOf(Date);
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

  it('creates the notification and the notify job of the timeout flip, and empties the outbox', async () => {
    const channel = await buildChannel(project);
    const check = await buildCheck(project, { status: 'up', lastPing: secondsAgo(10), timeout: 1, grace: 1, channels: [channel._id] });
    await processDeadline(deps(), check._id);
    const [flip] = await downFlips(check._id);
    const flipId = String(flip._id);
    expect(await Notification.countDocuments({ flipId, channelId: channel._id, status: 'down', state: 'pending' })).to.equal(1);
    const job = await testContext().queues.notify.getJob(notifyJobId(flipId, channel._id));
    expect(job?.data).to.deep.equal({ flipId, checkId: check._id, channelId: channel._id });
    expect((await stored(check._id)).outbox).to.deep.equal([]);
  });

  it('completes the flip a crashed attempt left in the outbox of a check already down, once', async () => {
    const channel = await buildChannel(project);
    const check = await buildCheck(project, { status: 'up', lastPing: secondsAgo(10), timeout: 1, grace: 1, channels: [channel._id] });
    const entry = { _id: new Types.ObjectId(), at: secondsAgo(8), recorded: secondsAgo(7), oldStatus: 'up', newStatus: 'down', reason: 'timeout' };
    await Check.updateOne({ _id: check._id }, { $set: { status: 'down', deadline: null }, $push: { outbox: entry } });
    expect(await processDeadline(deps(), check._id)).to.equal('down');
    expect(await processDeadline(deps(), check._id)).to.equal('down');
    expect(await downFlips(check._id)).to.have.length(1);
    expect(await Notification.countDocuments({ checkId: check._id })).to.equal(1);
    expect((await stored(check._id)).outbox).to.deep.equal([]);
  });

  it('applies a batch of due, early and missing checks in one call', async () => {
    const due = await Promise.all([1, 2, 3].map(() => buildCheck(project, { status: 'up', lastPing: secondsAgo(10), timeout: 1, grace: 1 })));
    const early = await buildCheck(project, { status: 'up', lastPing: new Date(), timeout: 60, grace: 60 });
    const outcomes = await applyDeadlines(deps(), [...due.map((c) => c._id), early._id, 'no-such-check']);
    expect([...outcomes.values()]).to.deep.equal(['flipped', 'flipped', 'flipped', 'rescheduled', 'gone']);
    for (const check of due) expect(await downFlips(check._id)).to.have.length(1);
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
