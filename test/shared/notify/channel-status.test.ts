import { expect } from 'chai';
import { Channel } from '../../../shared/models/channel.js';
import { lastErrorsByChannel, sendTestNotification } from '../../../shared/notify/channel-status.js';
import { buildChannel, buildProject } from '../../helpers/factories.js';
import { startReceiver } from '../../helpers/receiver.js';
import { testNotifyConfig } from '../../helpers/alerts.js';

describe('shared/notify/channel-status', () => {
  it("lists each of the project's channels with its last error, last delivery and disabled flag", async () => {
    const project = await buildProject();
    const failing = await buildChannel(project, { lastError: 'received status code 500', lastNotify: new Date('2024-05-01T00:00:00Z'), disabled: true });
    const fresh = await buildChannel(project);
    await buildChannel(await buildProject());
    const states = await lastErrorsByChannel(project.project._id);
    expect([...states.keys()].sort()).to.deep.equal([failing._id, fresh._id].sort());
    expect(states.get(failing._id)).to.deep.equal({ lastError: 'received status code 500', lastNotify: new Date('2024-05-01T00:00:00Z'), disabled: true });
    expect(states.get(fresh._id)).to.deep.equal({ lastError: '', lastNotify: null, disabled: false });
  });

  it("sends a test alert without touching the channel's delivery history", async () => {
    const receiver = await startReceiver();
    const channel = await buildChannel(await buildProject(), { kind: 'slack', value: `${receiver.url}/slack`, lastError: 'old' });
    await sendTestNotification(channel._id, testNotifyConfig(receiver.url));
    await receiver.close();
    expect(receiver.requests.map((r) => r.url)).to.deep.equal(['/slack']);
    expect((await Channel.findById(channel._id).lean())?.lastError).to.equal('old');
  });
});
