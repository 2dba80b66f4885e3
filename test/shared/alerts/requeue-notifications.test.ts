import { expect } from 'chai';
import { Worker } from 'bullmq';
import { systemClock } from '../../../shared/clock.js';
import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { Notification, type NotificationState } from '../../../shared/models/notification.js';
import { notifyJobId, notifyJobOptions } from '../../../shared/queues/notify.js';
import { bullOptions } from '../../../shared/queues/index.js';
import { requeueStaleNotifications } from '../../../shared/alerts/requeue.js';
import { QueueName } from '../../../shared/queues/names.js';
import { waitFor } from '../../helpers/poll.js';
import { createRedis } from '../../../shared/queues/connections.js';
import { testContext } from '../../helpers/hooks.js';

const STALE_MS = 60_000;

describe('requeueStaleNotifications (sweep of notify jobs lost after the fan-out)', () => {
  const deps = () => ({ queues: testContext().queues, clock: systemClock });
  async function notification(state: NotificationState, updated: Date, leaseUntil: Date | null = null) {
    const flipId = String(new Types.ObjectId());
    const fields = { _id: randomUUID(), flipId, checkId: 'c1', channelId: 'ch1', status: 'down' as const, flipCreated: updated, created: updated };
    return (await Notification.create({ ...fields, state, updated, leaseUntil })).toObject();
  }
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

  it('re-enqueues a pending notification untouched for a minute under its own job id', async () => {
    const doc = await notification('pending', minutesAgo(2));
    expect(await requeueStaleNotifications(deps(), STALE_MS)).to.equal(1);
    expect((await testContext().queues.notify.getJob(notifyJobId(doc.flipId, 'ch1')))?.data).to.deep.equal({ flipId: doc.flipId, checkId: 'c1', channelId: 'ch1' });
  });

  it('re-enqueues a notification whose sending lease ran out a minute ago', async () => {
    await notification('sending', minutesAgo(5), minutesAgo(2));
    expect(await requeueStaleNotifications(deps(), STALE_MS)).to.equal(1);
  });

  it('leaves recent, delivered and failed notifications alone', async () => {
    await notification('pending', new Date());
    await notification('delivered', minutesAgo(2));
    await notification('failed', minutesAgo(2));
    expect([await requeueStaleNotifications(deps(), STALE_MS), await testContext().queues.notify.count()]).to.deep.equal([0, 0]);
  });

  it('retries the failed job of a notification that never got an outcome (a job that stalled too often)', async () => {
    const doc = await notification('sending', minutesAgo(5), minutesAgo(2));
    const { queues, services } = testContext();
    const job = await queues.notify.add('notify', { flipId: doc.flipId, checkId: 'c1', channelId: 'ch1' }, notifyJobOptions({ attempts: 1, backoffMs: 1 }, doc.flipId, 'ch1'));
    const connection = createRedis(services.redisUrl, 'worker');
    const dying = new Worker(QueueName.Notify, () => Promise.reject(new Error('job stalled more than allowable limit')), bullOptions(connection));
    await waitFor('the job to fail', async () => (await job.getState()) === 'failed');
    await dying.close();
    await connection.quit();
    await requeueStaleNotifications(deps(), STALE_MS);
    const retried = await queues.notify.getJob(job.id!);
    expect([await retried?.getState(), retried?.attemptsMade]).to.deep.equal(['waiting', 0]);
  });
});
