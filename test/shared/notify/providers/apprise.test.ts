import { expect } from 'chai';
import { deliver } from '../../../../shared/notify/deliver.js';
import { jsonBody, startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { sampleAlert, testNotifyConfig } from '../../../helpers/alerts.js';

describe('apprise provider', () => {
  let receiver: Receiver;
  beforeEach(async () => (receiver = await startReceiver()));
  afterEach(() => receiver.close());

  it('POSTs title, body and type "failure" to the notify endpoint', async () => {
    await deliver({ kind: 'apprise', value: `${receiver.url}/notify/mykey` }, sampleAlert(), testNotifyConfig(receiver.url));
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.headers['content-type']]).to.deep.equal(['POST', '/notify/mykey', 'application/json']);
    expect(jsonBody(req)).to.include({ title: '"backup" is DOWN', type: 'failure', format: 'text' });
  });

  it('sends type "success" and the service URLs of a stateless endpoint on recovery', async () => {
    const value = JSON.stringify({ url: `${receiver.url}/notify`, urls: 'mailto://ops@example.org' });
    await deliver({ kind: 'apprise', value }, sampleAlert({ status: 'up', reason: '' }), testNotifyConfig(receiver.url));
    expect(jsonBody(receiver.requests[0])).to.include({ type: 'success', urls: 'mailto://ops@example.org', title: '"backup" is UP' });
  });
});
