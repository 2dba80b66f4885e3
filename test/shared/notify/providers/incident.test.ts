import { expect } from 'chai';
import { deliver } from '../../../../shared/notify/deliver.js';
import { validateChannelValue } from '../../../../shared/notify/kinds.js';
import { DeliveryError } from '../../../../shared/notify/types.js';
import { jsonBody, startReceiver, type Receiver, receiverPerTest } from '../../../helpers/receiver.js';
import { sampleAlert, testNotifyConfig } from '../../../helpers/alerts.js';

const ROUTING_KEY = '0123456789abcdef0123456789abcdef';
const GENIE_KEY = 'a1b2c3d4-e5f6-a7b8-c9d0-e1f2a3b4c5d6';

describe('incident providers (pagerduty, opsgenie)', () => {
  let receiver: Receiver;
  beforeEach(async () => (receiver = await startReceiver(() => ({ status: 202 }))));
  afterEach(() => receiver.close());

  it('pagerduty: triggers an event keyed by the check UUID when it goes down', async () => {
    await deliver({ kind: 'pagerduty', value: ROUTING_KEY }, sampleAlert(), testNotifyConfig(receiver.url));
    const [req] = receiver.requests;
    expect([req?.method, req?.url]).to.deep.equal(['POST', '/v2/enqueue']);
    const body = jsonBody(req);
    expect(body).to.include({ routing_key: ROUTING_KEY, event_action: 'trigger', dedup_key: sampleAlert().checkId });
    expect(body.payload).to.include({ summary: '"backup" is DOWN', severity: 'critical', timestamp: '2024-05-01T13:01:00+00:00' });
  });

  it('pagerduty: resolves the event when the check recovers', async () => {
    await deliver({ kind: 'pd', value: ROUTING_KEY }, sampleAlert({ status: 'up', reason: '' }), testNotifyConfig(receiver.url));
    expect(jsonBody(receiver.requests[0])).to.include({ event_action: 'resolve', dedup_key: sampleAlert().checkId });
  });

  it('opsgenie: creates an alert aliased by the check UUID with the GenieKey header', async () => {
    await deliver({ kind: 'opsgenie', value: GENIE_KEY }, sampleAlert(), testNotifyConfig(receiver.url));
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.headers.authorization]).to.deep.equal(['POST', '/v2/alerts', `GenieKey ${GENIE_KEY}`]);
    expect(jsonBody(req)).to.deep.include({ alias: sampleAlert().checkId, message: '"backup" is DOWN', tags: ['prod', 'db'] });
  });

  it('opsgenie: closes the alert by alias on the EU API when the check recovers', async () => {
    const value = JSON.stringify({ key: GENIE_KEY, region: 'eu' });
    await deliver({ kind: 'opsgenie', value }, sampleAlert({ status: 'up', reason: '' }), testNotifyConfig(receiver.url));
    const [req] = receiver.requests;
    expect([req?.method, req?.url]).to.deep.equal(['POST', `/eu/v2/alerts/${sampleAlert().checkId}/close?identifierType=alias`]);
  });
});

describe('pagertree provider', () => {
  const local = receiverPerTest({ status: 200 });

  const send = (alert = sampleAlert()) =>
    deliver({ kind: 'pagertree', value: `${local.receiver.url}/integration/int_abc123` }, alert, testNotifyConfig(local.receiver.url));

  it('triggers an incident keyed by the check UUID at the integration URL', async () => {
    await send();
    const [req] = local.receiver.requests;
    expect([req?.method, req?.url, req?.headers['content-type']]).to.deep.equal(['POST', '/integration/int_abc123', 'application/json']);
    const config = testNotifyConfig(local.receiver.url);
    expect(jsonBody(req)).to.deep.equal({
      incident_key: sampleAlert().checkId,
      event_type: 'trigger',
      title: 'backup is DOWN (the expected ping did not arrive in time)',
      description: 'backup is DOWN (the expected ping did not arrive in time).\nLast ping was at 2024-05-01T12:00:30+00:00.',
      client: config.siteName,
      client_url: config.baseUrl,
      tags: 'prod db',
    });
  });

  it('resolves it on recovery, without the last ping', async () => {
    await send(sampleAlert({ status: 'up', reason: '' }));
    expect(jsonBody(local.receiver.requests[0])).to.include({ event_type: 'resolve', title: 'backup is UP', description: 'backup is UP.' });
  });

  it('retries a 5xx and 429, not a 400', async () => {
    for (const [status, retryable] of [[500, true], [429, true], [400, false]] as const) {
      local.answer = { status };
      const err = await send().then(() => null, (e: unknown) => e as DeliveryError);
      expect([status, err?.retryable, err?.permanent]).to.deep.equal([status, retryable, false]);
    }
  });

  it('refuses a value that is not an http(s) URL', () => {
    expect(() => validateChannelValue('pagertree', 'int_abc123')).to.throw('invalid channel value: "url" must be a valid uri with a scheme matching the http|https pattern');
  });
});
