import { expect } from 'chai';
import { AppError } from '../../../../shared/errors.js';
import { deliver } from '../../../../shared/notify/deliver.js';
import { validateChannelValue } from '../../../../shared/notify/kinds.js';
import { DeliveryError } from '../../../../shared/notify/types.js';
import { formBody, jsonBody, startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { sampleAlert, testNotifyConfig } from '../../../helpers/alerts.js';

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(AppError);
    return (err as AppError).message;
  }
  throw new Error('expected an AppError');
}

describe('team chat providers (googlechat, rocketchat, zulip)', () => {
  let receiver: Receiver;
  beforeEach(async () => (receiver = await startReceiver()));
  afterEach(() => receiver.close());

  const config = () => testNotifyConfig(receiver.url);
  const failure = (promise: Promise<void>) => promise.then(() => null, (e: unknown) => e as DeliveryError);
  const zulipValue = (extra: Record<string, string> = {}) =>
    JSON.stringify({ bot_email: 'bot@example.org', api_key: 'fake-key', site: `${receiver.url}/`, mtype: 'stream', to: 'general', ...extra });

  it('googlechat: POSTs a card with the state paragraph, the facts and a details button', async () => {
    await deliver({ kind: 'googlechat', value: `${receiver.url}/v1/spaces/AAA/messages?key=k&token=t` }, sampleAlert(), config());
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.headers['content-type']]).to.deep.equal(['POST', '/v1/spaces/AAA/messages?key=k&token=t', 'application/json']);
    const section = jsonBody(req).cardsV2[0].card.sections[0];
    expect(section).to.include({ collapsible: true, uncollapsibleWidgetsCount: 1 });
    const [paragraph, ...rest] = section.widgets;
    expect(paragraph.textParagraph.text).to.equal(
      '🔴 The check <b>backup</b> is <b>DOWN</b>.\nReason: the expected ping did not arrive in time.',
    );
    expect(rest).to.deep.include({ decoratedText: { topLabel: 'Last ping', text: '2024-05-01T12:00:30+00:00' } });
    expect(rest.at(-1).buttonList.buttons[0].onClick.openLink.url).to.equal(sampleAlert().detailsUrl);
  });

  it('googlechat: says UP without a reason, and escapes the name', async () => {
    await deliver({ kind: 'googlechat', value: `${receiver.url}/hook` }, sampleAlert({ status: 'up', reason: '', name: 'a<b' }), config());
    const paragraph = jsonBody(receiver.requests[0]).cardsV2[0].card.sections[0].widgets[0];
    expect(paragraph.textParagraph.text).to.equal('🟢 The check <b>a&lt;b</b> is now <b>UP</b>.');
  });

  it('rocketchat: POSTs a Markdown line linking the check and a coloured attachment', async () => {
    await deliver({ kind: 'rocketchat', value: `${receiver.url}/hooks/abc/def` }, sampleAlert(), config());
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.headers['content-type']]).to.deep.equal(['POST', '/hooks/abc/def', 'application/json']);
    const body = jsonBody(req);
    expect(body.text).to.equal(`[backup](${sampleAlert().detailsUrl}) is DOWN (the expected ping did not arrive in time).`);
    expect(body.attachments[0].color).to.equal('#d9534f');
    expect(body.attachments[0].fields).to.deep.include.members([
      { title: 'Tags', value: '`prod` `db`', short: true },
      { title: 'Description', value: 'nightly dump' },
    ]);
  });

  it('googlechat and rocketchat: a 5xx is retried, a 404 is not and does not disable the channel', async () => {
    await receiver.close();
    receiver = await startReceiver((n) => ({ status: n === 0 ? 503 : 404 }));
    const unavailable = await failure(deliver({ kind: 'rocketchat', value: `${receiver.url}/h` }, sampleAlert(), config()));
    expect([unavailable?.retryable, unavailable?.permanent]).to.deep.equal([true, false]);
    const gone = await failure(deliver({ kind: 'googlechat', value: `${receiver.url}/h` }, sampleAlert(), config()));
    expect([gone?.message, gone?.retryable, gone?.permanent]).to.deep.equal(['received status code 404: {}', false, false]);
  });

  it('zulip: form-POSTs the stream message to <site>/api/v1/messages with the bot as Basic auth', async () => {
    await deliver({ kind: 'zulip', value: zulipValue() }, sampleAlert(), config());
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.headers['content-type']]).to.deep.equal(['POST', '/api/v1/messages', 'application/x-www-form-urlencoded']);
    expect(req?.headers.authorization).to.equal(`Basic ${Buffer.from('bot@example.org:fake-key').toString('base64')}`);
    expect(formBody(req)).to.deep.equal({
      type: 'stream',
      to: 'general',
      topic: 'backup is DOWN',
      content: `[backup](${sampleAlert().detailsUrl}) is **DOWN** (the expected ping did not arrive in time).\n\n---\n**Description**\nnightly dump`,
    });
  });

  it('zulip: uses the set topic, and sends a direct message to a user id as a list', async () => {
    await deliver({ kind: 'zulip', value: zulipValue({ topic: 'alerts' }) }, sampleAlert({ status: 'up', reason: '' }), config());
    await deliver({ kind: 'zulip', value: zulipValue({ mtype: 'private', to: '42' }) }, sampleAlert(), config());
    expect(formBody(receiver.requests[0])).to.include({ topic: 'alerts', content: `[backup](${sampleAlert().detailsUrl}) is **UP**.\n\n---\n**Description**\nnightly dump` });
    expect(formBody(receiver.requests[1])).to.include({ type: 'private', to: '[42]' });
  });

  it('zulip: keeps the error message Zulip answers; a 5xx is retried', async () => {
    await receiver.close();
    receiver = await startReceiver((n) => (n === 0 ? { status: 400, body: '{"result":"error","msg":"Stream does not exist"}' } : { status: 502 }));
    const refused = await failure(deliver({ kind: 'zulip', value: zulipValue() }, sampleAlert(), config()));
    expect([refused?.retryable, refused?.permanent]).to.deep.equal([false, false]);
    expect(refused?.message).to.contain('Stream does not exist');
    const unavailable = await failure(deliver({ kind: 'zulip', value: zulipValue() }, sampleAlert(), config()));
    expect(unavailable?.retryable).to.equal(true);
  });

  it('refuses invalid settings with a clear message', () => {
    expect(refusal(() => validateChannelValue('googlechat', 'chat.googleapis.com/v1/spaces'))).to.equal(
      'invalid channel value: "url" must be a valid uri with a scheme matching the http|https pattern',
    );
    expect(refusal(() => validateChannelValue('rocketchat', 'ftp://chat.example.org/hooks/x'))).to.match(/^invalid channel value: "url" must be/);
    expect(refusal(() => validateChannelValue('zulip', 'general'))).to.equal('invalid channel value: "bot_email" is required');
    const direct = '{"bot_email":"bot@example.org","api_key":"k","mtype":"direct","to":"general"}';
    expect(refusal(() => validateChannelValue('zulip', direct))).to.equal('invalid channel value: "mtype" must be one of [stream, private]');
  });

  it('accepts a zulip value as the reference stores it (empty site and topic)', () => {
    const value = '{"api_key": "k", "bot_email": "bot@example.org", "mtype": "stream", "site": "", "to": "general", "topic": ""}';
    expect(validateChannelValue('zulip', value)).to.equal('{"api_key":"k","bot_email":"bot@example.org","mtype":"stream","site":"","to":"general","topic":""}');
  });
});
