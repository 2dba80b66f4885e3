/**
 * Email alerts and confirmed addresses (shared/alerts/attempt.ts, shared/notify/providers/email.ts): real alert
 * workers deliver a flip through a real local SMTP receiver.
 */
import { expect } from 'chai';
import { Notification, type NotificationDoc } from '../../../shared/models/notification.js';
import { addressOfToken } from '../../../shared/notify/address-links.js';
import { config } from '../../../shared/config.js';
import { recordTestFlip } from '../../helpers/flips.js';
import { buildChannel, buildCheck, buildProject } from '../../helpers/factories.js';
import { startSmtp, type SmtpReceiver } from '../../helpers/smtp-receiver.js';
import { startAlertWorkers, testNotifyConfig, type TestAlertWorkers } from '../../helpers/alerts.js';
import { waitFor } from '../../helpers/poll.js';

describe('email alerts to confirmed addresses only', () => {
  let smtp: SmtpReceiver;
  let workers: TestAlertWorkers;
  beforeEach(async () => {
    smtp = await startSmtp();
  });
  afterEach(async () => {
    await workers.stop(true);
    await smtp.close();
  });

  /** A down flip through an email channel of `fields`, delivered by alert workers; the settled notification. */
  async function deliverTo(fields: { value: string; unconfirmed?: string[] }): Promise<NotificationDoc> {
    const notify = testNotifyConfig('', { smtpUrl: smtp.url });
    const project = await buildProject();
    const channel = await buildChannel(project, { kind: 'email', ...fields });
    const check = await buildCheck(project, { status: 'down', channels: [channel._id] });
    await recordTestFlip(check, { oldStatus: 'up', newStatus: 'down', reason: 'timeout' }, notify);
    workers = startAlertWorkers(notify);
    return waitFor('the notification to settle', () => Notification.findOne({ state: { $in: ['delivered', 'failed'] } }).lean<NotificationDoc>(), 15_000);
  }

  it('skips a channel none of whose addresses is confirmed, with the reason, and mails nothing', async () => {
    const notification = await deliverTo({ value: 'new@example.org', unconfirmed: ['new@example.org'] });
    // `failed` without an attempt is what the notification log shows as `skipped` (server/presenters/notification.ts).
    expect([notification.state, notification.attempts, notification.error]).to.deep.equal(['failed', 0, 'email address not confirmed by its owner yet']);
    expect(smtp.messages).to.have.length(0);
  });

  it('mails each confirmed address its own message with a one-click unsubscribe (RFC 8058)', async () => {
    const notification = await deliverTo({ value: 'a@example.org, new@example.org, b@example.org', unconfirmed: ['new@example.org'] });
    expect(notification.state).to.equal('delivered');
    expect(smtp.messages.map((m) => m.to).sort()).to.deep.equal([['a@example.org'], ['b@example.org']]);
    const mail = smtp.messages.find((m) => m.to[0] === 'a@example.org')?.mail;
    // The raw lines, unfolded (mailparser files List-* headers under one structured `list` entry).
    const header = (key: string) => (mail?.headerLines.find((line) => line.key === key)?.line ?? '').replace(/\r?\n\s+/g, ' ');
    const link = /^List-Unsubscribe: <(.+)>$/.exec(header('list-unsubscribe'))?.[1] ?? '';
    expect(header('list-unsubscribe-post')).to.equal('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(mail?.text).to.contain(`Stop these alerts to this address: ${link}`);
    const token = new URL(link).pathname.replace('/integrations/unsubscribe/', '');
    expect(addressOfToken('unsubscribe', token, config.secretKey, new Date()).address).to.equal('a@example.org');
  });

  it('counts a channel stored before confirmations existed (no `unconfirmed`) as confirmed', async () => {
    const notification = await deliverTo({ value: 'old@example.org' });
    expect([notification.state, smtp.messages.map((m) => m.to)]).to.deep.equal(['delivered', [['old@example.org']]]);
  });
});
