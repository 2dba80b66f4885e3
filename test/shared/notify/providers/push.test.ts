import { expect } from 'chai';
import { deliver } from '../../../../shared/notify/deliver.js';
import { validateChannelValue } from '../../../../shared/notify/kinds.js';
import { DeliveryError } from '../../../../shared/notify/types.js';
import { formBody, jsonBody, startReceiver, type Receiver, receiverPerTest } from '../../../helpers/receiver.js';
import { sampleAlert, testNotifyConfig } from '../../../helpers/alerts.js';

describe('push providers (ntfy, gotify, pushover)', () => {
  let receiver: Receiver;
  beforeEach(async () => (receiver = await startReceiver()));
  afterEach(() => receiver.close());

  it('ntfy: publishes JSON to the server root with the topic, priority 5 and a click link', async () => {
    await deliver({ kind: 'ntfy', value: JSON.stringify({ topic: 'ops', token: 'tk_1' }) }, sampleAlert(), testNotifyConfig(receiver.url));
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.headers.authorization]).to.deep.equal(['POST', '/', 'Bearer tk_1']);
    expect(jsonBody(req)).to.include({ topic: 'ops', title: '"backup" is DOWN', priority: 5, click: sampleAlert().detailsUrl });
  });

  it('ntfy: uses priority_up for recoveries and the channel\'s own server', async () => {
    const value = JSON.stringify({ topic: 'ops', url: `${receiver.url}/own`, priority_up: 2 });
    await deliver({ kind: 'ntfy', value }, sampleAlert({ status: 'up', reason: '' }), testNotifyConfig('http://127.0.0.1:9'));
    expect([receiver.requests[0]?.url, jsonBody(receiver.requests[0]).priority]).to.deep.equal(['/own/', 2]);
  });

  it('gotify: POSTs the message with the application token header', async () => {
    await deliver({ kind: 'gotify', value: `${receiver.url}/message?token=AbC123` }, sampleAlert(), testNotifyConfig(receiver.url));
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.headers['x-gotify-key']]).to.deep.equal(['POST', '/message', 'AbC123']);
    expect(jsonBody(req)).to.include({ title: '"backup" is DOWN', priority: 8 });
    expect(jsonBody(req).message).to.contain('Last ping: 2024-05-01T12:00:30+00:00');
  });

  it('pushover: POSTs the form with the configured app token and the user key', async () => {
    await deliver({ kind: 'po', value: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG' }, sampleAlert(), testNotifyConfig(receiver.url));
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.headers['content-type']]).to.deep.equal(['POST', '/1/messages.json', 'application/x-www-form-urlencoded']);
    expect(formBody(req)).to.include({ token: 'app-token', user: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG', title: '"backup" is DOWN', priority: '0', url: sampleAlert().detailsUrl });
  });

  it('pushover: adds retry and expire to emergency alerts', async () => {
    const value = JSON.stringify({ user_key: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG', priority: 2 });
    await deliver({ kind: 'pushover', value }, sampleAlert(), testNotifyConfig(receiver.url));
    expect(formBody(receiver.requests[0])).to.include({ priority: '2', retry: '300', expire: '3600' });
  });
});

describe('pushbullet provider', () => {
  const TOKEN = 'o.Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56';
  const local = receiverPerTest({ status: 200 });

  const send = (status: 'up' | 'down' = 'down') =>
    deliver({ kind: 'pushbullet', value: TOKEN }, sampleAlert(status === 'up' ? { status, reason: '' } : {}), testNotifyConfig(local.receiver.url));
  const failure = () => send().then(() => null, (e: unknown) => e as DeliveryError);

  it('POSTs a note to /v2/pushes with the Access-Token header, titled with the site name', async () => {
    await send();
    const [req] = local.receiver.requests;
    expect([req?.method, req?.url, req?.headers['access-token'], req?.headers['content-type']]).to.deep.equal(['POST', '/v2/pushes', TOKEN, 'application/json']);
    expect(jsonBody(req)).to.deep.equal({
      type: 'note',
      title: testNotifyConfig(local.receiver.url).siteName,
      body: 'The check "backup" is DOWN (the expected ping did not arrive in time).',
    });
  });

  it('says UP without a cause on recovery', async () => {
    await send('up');
    expect(jsonBody(local.receiver.requests[0]).body).to.equal('The check "backup" is UP.');
  });

  it('retries a 5xx; a 401 (revoked token) is a refusal, neither retried nor permanent', async () => {
    local.answer = { status: 503 };
    const busy = await failure();
    expect([busy?.retryable, busy?.permanent]).to.deep.equal([true, false]);
    local.answer = { status: 401, body: '{"error":{"code":"invalid_access_token"}}' };
    const refused = await failure();
    expect([refused?.retryable, refused?.permanent, refused?.message]).to.deep.equal([false, false, 'received status code 401: {"error":{"code":"invalid_access_token"}}']);
  });

  it('refuses a value that is not an access token', () => {
    expect(() => validateChannelValue('pushbullet', 'not a token')).to.throw('invalid channel value: "token" must be a Pushbullet access token');
  });
});
