import { expect } from 'chai';
import { deliver } from '../../../../shared/notify/deliver.js';
import { jsonBody, startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { sampleAlert, testNotifyConfig } from '../../../helpers/alerts.js';

/** Late warnings and reminders (docs/alerting-rules.md) as the webhook and chat kinds send them. */
describe('late and reminder alerts in the webhook and chat kinds', () => {
  let receiver: Receiver;
  beforeEach(async () => (receiver = await startReceiver()));
  afterEach(() => receiver.close());

  const late = sampleAlert({ event: 'late', reason: '' });
  const send = (kind: string, value: string, alert = late) => deliver({ kind, value }, alert, testNotifyConfig(receiver.url));

  it('webhook: POSTs status late and event late to a plain URL', async () => {
    await send('webhook', `${receiver.url}/hook`);
    expect(jsonBody(receiver.requests[0])).to.include({ status: 'late', event: 'late' });
  });

  it('webhook: uses the late template when given, with $STATUS = late', async () => {
    const value = JSON.stringify({ url_down: `${receiver.url}/down`, url_late: `${receiver.url}/late/$STATUS`, body_late: '{"s": "$STATUS"}', method_late: 'PUT' });
    await send('webhook', value);
    const [req] = receiver.requests;
    expect([req?.method, req?.url, jsonBody(req)]).to.deep.equal(['PUT', '/late/late', { s: 'late' }]);
  });

  it('webhook: falls back to the down template without a late one, still with $STATUS = late', async () => {
    await send('webhook', JSON.stringify({ url_down: `${receiver.url}/down/$STATUS` }));
    expect(receiver.requests[0]?.url).to.equal('/down/late');
  });

  it('webhook: a reminder carries its number', async () => {
    await send('webhook', `${receiver.url}/hook`, sampleAlert({ event: 'reminder', reminder: 3, reason: '' }));
    expect(jsonBody(receiver.requests[0])).to.include({ status: 'down', event: 'reminder', reminder: 3 });
  });

  it('slack: a late alert is titled LATE in the warning colour', async () => {
    await send('slack', `${receiver.url}/slack`);
    const body = jsonBody(receiver.requests[0]);
    expect([body.text, body.attachments[0].color]).to.deep.equal(['"backup" is LATE', 'warning']);
  });

  it('discord: a reminder is titled with its number', async () => {
    await send('discord', `${receiver.url}/discord`, sampleAlert({ event: 'reminder', reminder: 2, reason: '' }));
    expect(jsonBody(receiver.requests[0]).content).to.equal('"backup" is DOWN (reminder 2)');
  });
});
