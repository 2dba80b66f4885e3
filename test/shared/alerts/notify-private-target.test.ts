import { expect } from 'chai';
import { Channel } from '../../../shared/models/channel.js';
import { Notification, type NotificationDoc } from '../../../shared/models/notification.js';
import { recordTestFlip } from '../../helpers/flips.js';
import { buildChannel, buildCheck, buildProject } from '../../helpers/factories.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { startAlertWorkers, testNotifyConfig, type TestAlertWorkers } from '../../helpers/alerts.js';
import { waitFor } from '../../helpers/poll.js';

describe('shared/alerts/notify with INTEGRATIONS_ALLOW_PRIVATE_IPS off', () => {
  let receiver: Receiver;
  let workers: TestAlertWorkers | undefined;
  afterEach(async () => {
    await workers?.stop(true);
    workers = undefined;
    await receiver.close();
  });

  it('fails a webhook to a loopback address at once, records why, and sends nothing', async () => {
    receiver = await startReceiver();
    const project = await buildProject();
    const channel = await buildChannel(project, { kind: 'webhook', value: `${receiver.url}/hook` });
    const check = await buildCheck(project, { status: 'down', channels: [channel._id] });
    await recordTestFlip(check, { oldStatus: 'up', newStatus: 'down', reason: 'timeout' });
    workers = startAlertWorkers(testNotifyConfig(receiver.url, { allowPrivateIps: false }));
    const notification = await waitFor('the notification to fail', () => Notification.findOne({ state: 'failed' }).lean<NotificationDoc>(), 15_000);
    const refused = 'refused to connect to 127.0.0.1 (loopback address); set INTEGRATIONS_ALLOW_PRIVATE_IPS=true to allow private targets';
    expect([notification.attempts, notification.error, receiver.requests.length]).to.deep.equal([1, refused, 0]);
    const stored = await waitFor('the channel to record the error', () => Channel.findOne({ _id: channel._id, lastError: { $ne: '' } }).lean(), 15_000);
    expect(stored.lastError).to.equal(refused);
  });
});
