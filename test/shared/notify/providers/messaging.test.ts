import { expect } from 'chai';
import { deliver } from '../../../../shared/notify/deliver.js';
import { DeliveryError } from '../../../../shared/notify/types.js';
import { jsonBody, startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { sampleAlert, testNotifyConfig } from '../../../helpers/alerts.js';

describe('messaging providers (telegram, matrix)', () => {
  let receiver: Receiver;
  beforeEach(async () => (receiver = await startReceiver()));
  afterEach(() => receiver.close());

  it('telegram: POSTs sendMessage with the configured bot token, chat id and HTML text', async () => {
    await deliver({ kind: 'telegram', value: '-1001234567890' }, sampleAlert({ name: 'a<b' }), testNotifyConfig(receiver.url));
    const [req] = receiver.requests;
    expect([req?.method, req?.url]).to.deep.equal(['POST', '/bot123456:test-bot-token/sendMessage']);
    const body = jsonBody(req);
    expect(body).to.include({ chat_id: '-1001234567890', parse_mode: 'HTML' });
    expect(body.text).to.contain('<b>&quot;a&lt;b&quot; is DOWN</b>').and.contain(`<a href="${sampleAlert().detailsUrl}">`);
  });

  it('telegram: a 403 (bot removed from the chat) is permanent', async () => {
    await receiver.close();
    receiver = await startReceiver(() => ({ status: 403, body: '{"ok":false}' }));
    const err = await deliver({ kind: 'telegram', value: '42' }, sampleAlert(), testNotifyConfig(receiver.url)).then(() => null, (e: unknown) => e as DeliveryError);
    expect([err?.retryable, err?.permanent]).to.deep.equal([false, true]);
  });

  it('matrix: PUTs m.room.message with the notification id as transaction id', async () => {
    await deliver({ kind: 'matrix', value: '!room:example.org' }, sampleAlert(), testNotifyConfig(receiver.url));
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.headers.authorization]).to.deep.equal([
      'PUT',
      `/_matrix/client/v3/rooms/!room%3Aexample.org/send/m.room.message/${sampleAlert().id}`,
      'Bearer matrix-token',
    ]);
    expect(jsonBody(req)).to.include({ msgtype: 'm.text', format: 'org.matrix.custom.html' });
  });

  it('matrix: never sends the server’s token to a homeserver a channel names, and sends the channel’s own token there', async () => {
    const elsewhere = await startReceiver();
    try {
      // As if stored before the rule (the kind's schema now refuses it): another homeserver, no token of its own.
      const stored = JSON.stringify({ room_id: '!room:example.org', homeserver: elsewhere.url });
      const err = await deliver({ kind: 'matrix', value: stored }, sampleAlert(), testNotifyConfig(receiver.url)).then(() => null, (e: unknown) => e as DeliveryError);
      expect([err?.retryable, elsewhere.requests.length, receiver.requests.length]).to.deep.equal([false, 0, 0]);
      expect(err?.message).to.contain('a homeserver of your own needs its own access_token');
      const own = JSON.stringify({ room_id: '!room:example.org', homeserver: elsewhere.url, access_token: 'members-own-token' });
      await deliver({ kind: 'matrix', value: own }, sampleAlert(), testNotifyConfig(receiver.url));
      expect(elsewhere.requests.map((req) => req.headers.authorization)).to.deep.equal(['Bearer members-own-token']);
    } finally {
      await elsewhere.close();
    }
  });

  it('matrix: fails without retry when no access token is configured', async () => {
    const config = testNotifyConfig(receiver.url, { matrixAccessToken: '' });
    const err = await deliver({ kind: 'matrix', value: '!room:example.org' }, sampleAlert(), config).then(() => null, (e: unknown) => e as DeliveryError);
    expect([err?.message, err?.retryable, receiver.requests.length]).to.deep.equal(['matrix access token is not configured (MATRIX_ACCESS_TOKEN)', false, 0]);
  });
});
