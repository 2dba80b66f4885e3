import { expect } from 'chai';
import type { Job } from 'bullmq';
import { systemClock } from '../../../shared/clock.js';
import { Channel } from '../../../shared/models/channel.js';
import { Notification, type NotificationDoc } from '../../../shared/models/notification.js';
import { claimNotifications, notificationIdOf } from '../../../shared/alerts/notifications.js';
import { notifyBatchers } from '../../../shared/alerts/notify-batch.js';
import { leaseMsOf, processNotify } from '../../../shared/alerts/notify.js';
import { recordTestFlip } from '../../helpers/flips.js';
import { buildChannel, buildCheck, buildProject } from '../../helpers/factories.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { testNotifyConfig } from '../../helpers/alerts.js';

describe('notify jobs in batches (claims and delivery records shared by the jobs running together)', () => {
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver(() => ({ status: 200 }));
  });
  afterEach(async () => {
    await receiver.close();
  });

  /** `count` checks gone down, each with a flip alerting through one shared webhook channel. */
  async function downFlips(count: number) {
    const project = await buildProject();
    const channel = await buildChannel(project, { kind: 'webhook', value: `${receiver.url}/hook` });
    const flips = [];
    for (let i = 0; i < count; i++) {
      const check = await buildCheck(project, { status: 'down', channels: [channel._id] });
      const flipId = await recordTestFlip(check, { oldStatus: 'up', newStatus: 'down', reason: 'timeout' }, testNotifyConfig(receiver.url));
      flips.push({ flipId, checkId: check._id, channelId: channel._id });
    }
    return flips;
  }

  it('names a notification by a UUID derived from its flip and channel', async () => {
    const [flip] = await downFlips(1);
    const id = notificationIdOf(flip.flipId, flip.channelId);
    expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(notificationIdOf(flip.flipId, flip.channelId)).to.equal(id);
    expect(notificationIdOf(flip.flipId, 'another')).to.not.equal(id);
    expect(await Notification.findById(id).lean()).to.include({ flipId: flip.flipId, state: 'pending' });
  });

  it('claims every pending notification once, a repeated key finds it busy, a settled or missing one is done', async () => {
    const [a, b, c] = await downFlips(3);
    await Notification.updateOne({ flipId: c.flipId }, { $set: { state: 'delivered' } });
    const claims = await claimNotifications([a, b, a, c, { flipId: 'none', channelId: a.channelId }], 60_000, new Date());
    expect(claims.map((cl) => cl.kind)).to.deep.equal(['claimed', 'claimed', 'busy', 'done', 'done']);
    const stored = await Notification.find({ flipId: { $in: [a.flipId, b.flipId] } }).lean<NotificationDoc[]>();
    expect(stored.map((n) => n.state)).to.deep.equal(['sending', 'sending']);
  });

  it('delivers the jobs of one batch once each and records them and the channel together', async () => {
    const flips = await downFlips(5);
    const config = testNotifyConfig(receiver.url);
    const batch = notifyBatchers(systemClock, leaseMsOf(config));
    const jobs = flips.map((data) => ({ data, attemptsMade: 0, opts: {} }) as Job);
    const outcomes = await Promise.all(jobs.map((job) => processNotify(job, undefined, { clock: systemClock, config, batch })));
    expect(outcomes).to.deep.equal(new Array(5).fill('delivered'));
    expect(receiver.requests).to.have.length(5);
    const stored = await Notification.find({}).lean<NotificationDoc[]>();
    expect(stored.map((n) => [n.state, n.attempts, n.claimToken])).to.deep.equal(new Array(5).fill(['delivered', 1, null]));
    const channel = await Channel.findById(flips[0].channelId).lean();
    expect(channel!.lastNotify).to.be.instanceOf(Date);
    expect(channel!.lastError).to.equal('');
    // Jobs run again (a retry, a requeue) find their notifications delivered: nothing is sent.
    expect(await Promise.all(jobs.map((job) => processNotify(job, undefined, { clock: systemClock, config, batch })))).to.deep.equal(new Array(5).fill('skipped'));
    expect(receiver.requests).to.have.length(5);
  });
});
