import { expect } from 'chai';
import { AppError } from '../../../shared/errors.js';
import { channelSendsOn, parseChannelSettings, validateChannelValue } from '../../../shared/notify/kinds.js';

/** A valid plain value of every kind. */
const PLAIN: Record<string, string> = {
  apprise: 'https://apprise.example.org/notify/key',
  call: '+15551234567',
  discord: 'https://discord.com/api/webhooks/1/abc',
  email: 'alice@example.org',
  gotify: 'https://gotify.example.org/message?token=AbC123',
  matrix: '!room:example.org',
  mattermost: 'https://chat.example.org/hooks/xyz',
  msteams: 'https://example.webhook.office.com/workflows/1',
  msteamsw: 'https://example.webhook.office.com/workflows/1',
  ntfy: 'backups-alerts',
  opsgenie: 'a1b2c3d4-e5f6-a7b8-c9d0-e1f2a3b4c5d6',
  pd: '0123456789abcdef0123456789abcdef',
  pagerduty: '0123456789abcdef0123456789abcdef',
  pagertree: 'https://api.pagertree.com/integration/int_abc123',
  po: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
  pushbullet: 'o.Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56',
  pushover: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
  signal: '+15551234567',
  slack: 'https://hooks.slack.com/services/T0/B0/x',
  sms: '+15551234567',
  telegram: '-1001234567890',
  webhook: 'https://example.org/hook',
  whatsapp: '+15551234567',
};

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(AppError);
    expect((err as AppError).status).to.equal(400);
    return (err as AppError).message;
  }
  throw new Error('expected an AppError');
}

describe('shared/notify/kinds', () => {
  for (const [kind, value] of Object.entries(PLAIN)) {
    it(`accepts a plain ${kind} value and stores it trimmed`, () => {
      expect(validateChannelValue(kind, ` ${value} `)).to.equal(value);
    });
  }

  it('rejects an unknown kind', () => {
    expect(errorOf(() => validateChannelValue('carrier-pigeon', 'x'))).to.equal('unknown channel kind: carrier-pigeon');
  });

  it('rejects an empty value', () => {
    expect(errorOf(() => validateChannelValue('email', '  '))).to.equal('channel value is empty');
  });

  it('rejects a plain value that is not what the kind needs', () => {
    expect(errorOf(() => validateChannelValue('email', 'not-an-address'))).to.equal('invalid channel value: "address" must be a valid email');
    expect(errorOf(() => validateChannelValue('slack', 'hooks.slack.com/x'))).to.equal('invalid channel value: "url" must be a valid uri with a scheme matching the http|https pattern');
  });

  it('rejects a phone number that is not E.164', () => {
    expect(errorOf(() => validateChannelValue('sms', '555-1234'))).to.equal('invalid channel value: "number" must be a phone number in E.164 format');
  });

  it('stores a JSON value compactly', () => {
    const value = '{ "url_down": "https://example.org/down", "method_down": "POST", "body_down": "$NAME" }';
    expect(validateChannelValue('webhook', value)).to.equal('{"url_down":"https://example.org/down","method_down":"POST","body_down":"$NAME"}');
  });

  it('rejects a value that starts like JSON but does not parse', () => {
    expect(errorOf(() => validateChannelValue('webhook', '{"url": '))).to.equal('channel value is not a valid JSON object');
  });

  it('rejects a setting the kind does not know', () => {
    expect(errorOf(() => validateChannelValue('email', '{"address":"a@example.org","cc":"b@example.org"}'))).to.equal('invalid channel value: "cc" is not allowed');
  });

  it('rejects a webhook without any URL', () => {
    expect(errorOf(() => validateChannelValue('webhook', '{"method_down":"GET"}'))).to.equal('invalid channel value: a webhook needs url, or url_down and/or url_up');
  });

  it('fills defaults: both directions on, ntfy priorities 5 and 3', () => {
    expect(parseChannelSettings('ntfy', 'topic1')).to.deep.equal({ topic: 'topic1', priority: 5, priority_up: 3, up: true, down: true });
  });

  it('validates a kind and value once: the same frozen settings again, and the same error for a bad value every time', () => {
    const first = parseChannelSettings('ntfy', 'topic-memo');
    expect(parseChannelSettings('ntfy', 'topic-memo')).to.equal(first);
    expect(Object.isFrozen(first)).to.equal(true);
    expect(parseChannelSettings('webhook', 'https://example.org/memo')).to.not.equal(first);
    for (let i = 0; i < 2; i++) expect(errorOf(() => parseChannelSettings('webhook', 'not a url'))).to.match(/^invalid channel value: /);
  });

  it('reads a gotify message URL into server and token', () => {
    const settings = parseChannelSettings('gotify', 'https://gotify.example.org/message?token=AbC123');
    expect(settings).to.include({ url: 'https://gotify.example.org', token: 'AbC123' });
  });

  it('turns a direction off with the `up`/`down` flags', () => {
    const value = '{"address":"a@example.org","up":false}';
    expect([channelSendsOn('email', value, 'up'), channelSendsOn('email', value, 'down')]).to.deep.equal([false, true]);
  });

  it('sends nothing for a webhook direction without a URL', () => {
    const value = '{"url_down":"https://example.org/down"}';
    expect([channelSendsOn('webhook', value, 'up'), channelSendsOn('webhook', value, 'down')]).to.deep.equal([false, true]);
  });
});
