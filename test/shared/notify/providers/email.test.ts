import { expect } from 'chai';
import { deliver } from '../../../../shared/notify/deliver.js';
import { DeliveryError } from '../../../../shared/notify/types.js';
import { freePort } from '../../../helpers/services.js';
import { startSmtp, type SmtpReceiver } from '../../../helpers/smtp-receiver.js';
import { sampleAlert, testNotifyConfig } from '../../../helpers/alerts.js';

describe('email provider', () => {
  let smtp: SmtpReceiver | undefined;
  afterEach(async () => {
    await smtp?.close();
    smtp = undefined;
  });

  it('sends the alert to the address through SMTP_URL, from DEFAULT_FROM_EMAIL', async () => {
    smtp = await startSmtp();
    await deliver({ kind: 'email', value: 'alice@example.org' }, sampleAlert(), testNotifyConfig('', { smtpUrl: smtp.url }));
    const [message] = smtp.messages;
    expect([message?.to, message?.from]).to.deep.equal([['alice@example.org'], 'alerts@hc.test']);
    expect(message?.mail.subject).to.equal('DOWN | backup');
    expect(message?.mail.text).to.contain('The check "backup" is DOWN: the expected ping did not arrive in time.')
      .and.contain('Last ping: 2024-05-01T12:00:30+00:00.')
      .and.contain(`Details: ${sampleAlert().detailsUrl}`);
  });

  it('sends a message of its own to every address of a list (each its own unsubscribe link), subject UP on recovery', async () => {
    smtp = await startSmtp();
    const alert = sampleAlert({ status: 'up', reason: '', name: '' });
    await deliver({ kind: 'email', value: 'a@example.org,b@example.org' }, alert, testNotifyConfig('', { smtpUrl: smtp.url }));
    expect(smtp.messages.map((m) => [m.to, m.mail.subject])).to.deep.equal([[['a@example.org'], `UP | ${alert.checkId}`], [['b@example.org'], `UP | ${alert.checkId}`]]);
  });

  it('refuses, without retrying, a channel whose addresses are all unconfirmed', async () => {
    smtp = await startSmtp();
    const channel = { kind: 'email', value: 'new@example.org', unconfirmed: ['new@example.org'] };
    const err = await deliver(channel, sampleAlert(), testNotifyConfig('', { smtpUrl: smtp.url })).then(() => null, (e: unknown) => e as DeliveryError);
    expect([err?.message, err?.retryable, smtp.messages.length]).to.deep.equal(['email address not confirmed by its owner yet', false, 0]);
  });

  it('does not retry a 5xx refusal', async () => {
    smtp = await startSmtp(550);
    const err = await deliver({ kind: 'email', value: 'nobody@example.org' }, sampleAlert(), testNotifyConfig('', { smtpUrl: smtp.url })).then(() => null, (e: unknown) => e as DeliveryError);
    expect([err?.retryable, smtp.messages.length]).to.deep.equal([false, 0]);
    expect(err?.message).to.match(/^smtp: .*550/);
  });

  it('retries when the relay cannot be reached', async () => {
    const config = testNotifyConfig('', { smtpUrl: `smtp://127.0.0.1:${await freePort()}` });
    const err = await deliver({ kind: 'email', value: 'alice@example.org' }, sampleAlert(), config).then(() => null, (e: unknown) => e as DeliveryError);
    expect(err?.retryable).to.equal(true);
  });
});
