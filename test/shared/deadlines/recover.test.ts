import { expect } from 'chai';
import { applyDeadlines } from '../../../shared/deadlines/process.js';
import { completeOwedWork } from '../../../shared/deadlines/recover.js';
import { createRedis } from '../../../shared/queues/connections.js';
import { buildChannel, buildCheck, buildProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { startReceiver } from '../../helpers/receiver.js';
import { testNotifyConfig } from '../../helpers/alerts.js';
import { waitFor } from '../../helpers/poll.js';
import { downFlips, workerDeps } from '../../workers/support.js';

const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);

describe("the workers' recovery of owed work (shared/deadlines/recover.ts)", () => {
  it('takes a stalled overdue check, and leaves alone a check whose alerts this process is sending', async () => {
    const receiver = await startReceiver(() => 'hang');
    const connection = createRedis(testContext().services.redisUrl, 'worker');
    try {
      const project = await buildProject();
      const channel = await buildChannel(project, { kind: 'webhook', value: `${receiver.url}/hook` });
      const sending = await buildCheck(project, { status: 'up', lastPing: secondsAgo(10), timeout: 1, grace: 1, channels: [channel._id] });
      const notify = testNotifyConfig(receiver.url, { attemptTimeoutMs: 5_000 });
      const deps = { ...workerDeps(connection), notify };
      // Its down write done and its alert in flight (the receiver never answers): its outbox entry is owed until the attempt ends.
      const applying = applyDeadlines(deps, [sending._id]);
      await waitFor('the alert in flight', async () => receiver.requests.length === 1, 5_000);
      const stalled = await buildCheck(project, { status: 'up', lastPing: secondsAgo(10), timeout: 1, grace: 1, deadline: secondsAgo(8) });

      expect(await completeOwedWork(deps, new Date(Date.now() + 60_000))).to.equal(1);
      expect(await downFlips(stalled._id)).to.have.length(1);
      expect(receiver.requests).to.have.length(1);
      await applying;
      expect(await downFlips(sending._id)).to.have.length(1);
    } finally {
      await receiver.close();
      connection.disconnect();
    }
  });
});
