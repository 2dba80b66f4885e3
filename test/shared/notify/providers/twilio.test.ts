import { expect } from 'chai';
import { deliver } from '../../../../shared/notify/deliver.js';
import { channelSendsOn, validateChannelValue } from '../../../../shared/notify/kinds.js';
import { DeliveryError } from '../../../../shared/notify/types.js';
import { formBody, startReceiver, type Receiver, receiverPerTest } from '../../../helpers/receiver.js';
import { sampleAlert, testNotifyConfig } from '../../../helpers/alerts.js';

const BASIC = `Basic ${Buffer.from('AC123:secret').toString('base64')}`;

describe('phone providers (sms, whatsapp, signal) over a Twilio-compatible API', () => {
  let receiver: Receiver;
  beforeEach(async () => (receiver = await startReceiver(() => ({ status: 201 }))));
  afterEach(() => receiver.close());

  it('sms: POSTs Messages.json with basic auth and a short body', async () => {
    await deliver({ kind: 'sms', value: '+15551234567' }, sampleAlert(), testNotifyConfig(receiver.url));
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.headers.authorization]).to.deep.equal(['POST', '/2010-04-01/Accounts/AC123/Messages.json', BASIC]);
    expect(formBody(req)).to.deep.equal({
      From: '+15550000000',
      To: '+15551234567',
      Body: `The check "backup" is DOWN. Last ping: 2024-05-01T12:00:30+00:00. ${sampleAlert().detailsUrl}`,
    });
  });

  it('whatsapp: prefixes both numbers with whatsapp:', async () => {
    await deliver({ kind: 'whatsapp', value: '+15551234567' }, sampleAlert(), testNotifyConfig(receiver.url));
    expect(formBody(receiver.requests[0])).to.include({ From: 'whatsapp:+15550000000', To: 'whatsapp:+15551234567' });
  });

  it("signal: prefixes both numbers with signal: and uses the channel's own sender and account", async () => {
    const value = JSON.stringify({ number: '+15551234567', from: '+15559999999', account: 'AC9', auth: 'x' });
    await deliver({ kind: 'signal', value }, sampleAlert(), testNotifyConfig(receiver.url));
    expect(receiver.requests[0]?.url).to.equal('/2010-04-01/Accounts/AC9/Messages.json');
    expect(formBody(receiver.requests[0])).to.include({ From: 'signal:+15559999999', To: 'signal:+15551234567' });
  });

  it('fails without retry when no account is configured', async () => {
    const config = testNotifyConfig(receiver.url, { twilioAccount: '' });
    const err = await deliver({ kind: 'sms', value: '+15551234567' }, sampleAlert(), config).then(() => null, (e: unknown) => e as DeliveryError);
    expect([err?.retryable, receiver.requests.length]).to.deep.equal([false, 0]);
  });
});

describe('call provider over a Twilio-compatible Calls API', () => {
  const local = receiverPerTest({ status: 201 });

  const send = (alert = sampleAlert()) => deliver({ kind: 'call', value: '+15551234567' }, alert, testNotifyConfig(local.receiver.url));
  const failure = () => send().then(() => null, (e: unknown) => e as DeliveryError);

  it('POSTs Calls.json with basic auth and TwiML that says the check is down, XML-escaped', async () => {
    await send(sampleAlert({ name: 'db & <backup>' }));
    const [req] = local.receiver.requests;
    expect([req?.method, req?.url, req?.headers.authorization, req?.headers['content-type']]).to.deep.equal(
      ['POST', '/2010-04-01/Accounts/AC123/Calls.json', BASIC, 'application/x-www-form-urlencoded'],
    );
    const site = testNotifyConfig(local.receiver.url).siteName;
    expect(formBody(req)).to.deep.equal({
      From: '+15550000000',
      To: '+15551234567',
      Twiml: `<Response><Say>Hello! A message from ${site}: The check "db &amp; &lt;backup&gt;" is down.</Say></Response>`,
    });
  });

  it('calls on down only', () => {
    expect([channelSendsOn('call', '+15551234567', 'down'), channelSendsOn('call', '+15551234567', 'up')]).to.deep.equal([true, false]);
  });

  it('disables the channel on Twilio error 21211 (invalid To number); another 400 is only a refusal', async () => {
    local.answer = { status: 400, body: '{"code": 21211, "message": "The \'To\' number is not a valid phone number."}' };
    const invalid = await failure();
    expect([invalid?.retryable, invalid?.permanent]).to.deep.equal([false, true]);
    local.answer = { status: 400, body: '{"code": 21210}' };
    const other = await failure();
    expect([other?.retryable, other?.permanent]).to.deep.equal([false, false]);
    local.answer = { status: 503, body: 'not json' };
    expect((await failure())?.retryable).to.equal(true);
  });

  it('refuses a number that is not E.164', () => {
    expect(() => validateChannelValue('call', '5551234')).to.throw('invalid channel value: "number" must be a phone number in E.164 format');
  });
});
