import { expect } from 'chai';
import { Channel } from '../../../shared/models/channel.js';
import { sendTestNotification } from '../../../shared/notify/channel-status.js';
import { buildChannel, buildProject } from '../../helpers/factories.js';
import { startReceiver } from '../../helpers/receiver.js';
import { testNotifyConfig } from '../../helpers/alerts.js';

describe('shared/notify/channel-status', () => {
  it("sends a test alert without touching the channel's delivery history", async () => {
    const receiver = await startReceiver();
    const channel = await buildChannel(await buildProject(), { kind: 'slack', value: `${receiver.url}/slack`, lastError: 'old' });
    await sendTestNotification(channel._id, testNotifyConfig(receiver.url));
    await receiver.close();
    expect(receiver.requests.map((r) => r.url)).to.deep.equal(['/slack']);
    expect((await Channel.findById(channel._id).lean())?.lastError).to.equal('old');
  });
});
