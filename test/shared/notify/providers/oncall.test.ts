import { expect } from 'chai';
import { AppError } from '../../../../shared/errors.js';
import { deliver } from '../../../../shared/notify/deliver.js';
import { validateChannelValue } from '../../../../shared/notify/kinds.js';
import { DeliveryError } from '../../../../shared/notify/types.js';
import { jsonBody, startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { sampleAlert, testNotifyConfig } from '../../../helpers/alerts.js';

describe('on-call providers (spike, victorops)', () => {
  let receiver: Receiver;
  beforeEach(async () => (receiver = await startReceiver()));
  afterEach(() => receiver.close());

  const send = (kind: string, path: string, alert = sampleAlert()) =>
    deliver({ kind, value: `${receiver.url}${path}` }, alert, testNotifyConfig(receiver.url));
  const failure = (promise: Promise<void>) => promise.then(() => null, (e: unknown) => e as DeliveryError);

  it('spike: POSTs the check id, title, message and status as JSON', async () => {
    await send('spike', '/v1/alerts/abc123');
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.headers['content-type']]).to.deep.equal(['POST', '/v1/alerts/abc123', 'application/json']);
    expect(jsonBody(req)).to.deep.equal({
      check_id: sampleAlert().checkId,
      title: 'backup is DOWN (the expected ping did not arrive in time)',
      message: 'backup is DOWN (the expected ping did not arrive in time).\nLast ping was 2024-05-01T12:00:30+00:00.',
      status: 'down',
    });
  });

  it('spike: an up alert has no reason or last ping', async () => {
    await send('spike', '/v1/alerts/abc123', sampleAlert({ status: 'up', reason: '' }));
    expect(jsonBody(receiver.requests[0])).to.include({ title: 'backup is UP', message: 'backup is UP.', status: 'up' });
  });

  it('victorops: a CRITICAL message on down, keyed by the check UUID', async () => {
    await send('victorops', '/integrations/generic/20131114/alert/key/routing');
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.headers['content-type']]).to.deep.equal([
      'POST', '/integrations/generic/20131114/alert/key/routing', 'application/json',
    ]);
    expect(jsonBody(req)).to.deep.equal({
      entity_id: sampleAlert().checkId,
      message_type: 'CRITICAL',
      entity_display_name: 'backup',
      state_message: 'backup is DOWN (the expected ping did not arrive in time).',
      monitoring_tool: 'hc-monitor',
    });
  });

  it('victorops: a RECOVERY message on up, the check UUID standing in for an empty name', async () => {
    await send('victorops', '/alert', sampleAlert({ status: 'up', reason: '', name: '' }));
    const id = sampleAlert().checkId;
    expect(jsonBody(receiver.requests[0])).to.include({ entity_id: id, message_type: 'RECOVERY', entity_display_name: id, state_message: `${id} is UP.` });
  });

  it('a 5xx is retried; a 404 disables a victorops channel but not a spike one', async () => {
    await receiver.close();
    receiver = await startReceiver((n) => ({ status: n === 0 ? 500 : 404 }));
    const unavailable = await failure(send('spike', '/x'));
    expect([unavailable?.retryable, unavailable?.permanent]).to.deep.equal([true, false]);
    const gone = await failure(send('victorops', '/x'));
    expect([gone?.retryable, gone?.permanent]).to.deep.equal([false, true]);
    const spikeGone = await failure(send('spike', '/x'));
    expect([spikeGone?.retryable, spikeGone?.permanent]).to.deep.equal([false, false]);
  });

  it('refuses a value that is not an http(s) URL with a clear message', () => {
    for (const kind of ['spike', 'victorops']) {
      let message = '';
      try {
        validateChannelValue(kind, 'alert.victorops.com/integrations/x');
      } catch (err) {
        expect(err).to.be.instanceOf(AppError);
        message = (err as AppError).message;
      }
      expect(message).to.equal('invalid channel value: "url" must be a valid uri with a scheme matching the http|https pattern');
    }
  });
});
