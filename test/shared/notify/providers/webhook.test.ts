import { expect } from 'chai';
import { deliver } from '../../../../shared/notify/deliver.js';
import { fillTemplate } from '../../../../shared/notify/providers/webhook.js';
import { jsonBody, startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { sampleAlert, testNotifyConfig } from '../../../helpers/alerts.js';

describe('webhook provider', () => {
  let receiver: Receiver;
  beforeEach(async () => (receiver = await startReceiver()));
  afterEach(() => receiver.close());

  it('POSTs the alert as JSON to a plain URL when the check goes down', async () => {
    await deliver({ kind: 'webhook', value: `${receiver.url}/hook` }, sampleAlert(), testNotifyConfig(receiver.url));
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.headers['content-type']]).to.deep.equal(['POST', '/hook', 'application/json']);
    expect(jsonBody(req)).to.include({ uuid: sampleAlert().checkId, name: 'backup', tags: 'prod db', status: 'down', last_ping: '2024-05-01T12:00:30+00:00' });
  });

  it('sends an Idempotency-Key, the same on every retry of one alert and distinct between alerts, unless the channel sets its own', async () => {
    const send = (id: string, value = `${receiver.url}/hook`) => deliver({ kind: 'webhook', value }, sampleAlert({ id }), testNotifyConfig(receiver.url));
    await send('a1');
    await send('a1');
    await send('b2');
    await send('c3', JSON.stringify({ url_down: `${receiver.url}/t`, headers_down: { 'idempotency-key': 'mine-$CODE' } }));
    expect(receiver.requests.map((r) => r.headers['idempotency-key'])).to.deep.equal(['a1', 'a1', 'b2', `mine-${sampleAlert().checkId}`]);
  });

  it('POSTs status "up" to a plain URL when the check recovers', async () => {
    await deliver({ kind: 'webhook', value: `${receiver.url}/hook` }, sampleAlert({ status: 'up', reason: '' }), testNotifyConfig(receiver.url));
    expect(jsonBody(receiver.requests[0]).status).to.equal('up');
  });

  it('fills the down template into the method, URL, headers and body', async () => {
    const value = JSON.stringify({
      url_down: `${receiver.url}/down?check=$NAME&at=$NOW`,
      method_down: 'PUT',
      headers_down: { 'X-Status': '$STATUS', 'X-Code': '$CODE' },
      body_down: '{"name": $NAME_JSON, "desc": $DESC_JSON, "tags": "$TAGS"}',
    });
    await deliver({ kind: 'webhook', value }, sampleAlert({ name: 'a&b c' }), testNotifyConfig(receiver.url));
    const [req] = receiver.requests;
    expect([req?.method, req?.url]).to.deep.equal(['PUT', '/down?check=a%26b%20c&at=2024-05-01T13%3A01%3A00%2B00%3A00']);
    expect([req?.headers['x-status'], req?.headers['x-code']]).to.deep.equal(['down', sampleAlert().checkId]);
    expect(jsonBody(req)).to.deep.equal({ name: 'a&b c', desc: 'nightly dump', tags: 'prod db' });
  });

  it('sends the up template as a GET without a body', async () => {
    const value = JSON.stringify({ url_down: `${receiver.url}/down`, url_up: `${receiver.url}/up/$CODE`, body_up: 'ignored', method_up: 'GET' });
    await deliver({ kind: 'webhook', value }, sampleAlert({ status: 'up', reason: '' }), testNotifyConfig(receiver.url));
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.body]).to.deep.equal(['GET', `/up/${sampleAlert().checkId}`, '']);
  });

  it('puts the whole alert in $JSON', () => {
    const filled = JSON.parse(fillTemplate('$JSON', sampleAlert())) as Record<string, unknown>;
    expect(filled).to.include({ uuid: sampleAlert().checkId, status: 'down', timestamp: '2024-05-01T13:01:00+00:00' });
  });

  it('fills in one pass, longest names first, with $TAG1…', () => {
    const alert = sampleAlert({ name: '$STATUS', tags: 'prod db' });
    expect(fillTemplate('$NAME_JSON|$NAME|$TAG1|$TAG2|$TAG3', alert)).to.equal('"$STATUS"|$STATUS|prod|db|$TAG3');
  });
});
