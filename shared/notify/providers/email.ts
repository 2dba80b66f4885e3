/**
 * `email` through the relay at `config.smtpUrl` to the value's confirmed address(es), one message each with its
 * one-click unsubscribe (RFC 8058 `List-Unsubscribe` and `List-Unsubscribe-Post`); SMTP 4xx and connection errors
 * are retried, 5xx (mailbox unknown, relay refused) and a channel without a confirmed address are not.
 */
import Joi from 'joi';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { NotifyConfig } from '../../config.js';
import { addressToken, splitAddresses } from '../address-links.js';
import { labelOf, statusWordOf } from '../message.js';
import { emailDetailsOf, emailParts, type EmailDetails } from '../email-message.js';
import { DeliveryError, type Alert, type Provider } from '../types.js';

/** Settings of an email channel. */
export interface EmailSettings {
  /** One address or a comma-separated list. */
  address: string;
}

/** What nodemailer attaches to its errors. */
interface SmtpFailure {
  message?: string;
  code?: string;
  responseCode?: number;
}

function deliveryErrorOf(err: unknown): DeliveryError {
  const failure = (err ?? {}) as SmtpFailure;
  const message = failure.message ?? String(err);
  if (failure.responseCode) return new DeliveryError(`smtp: ${message}`, failure.responseCode < 500);
  return new DeliveryError(`smtp: ${message}`, failure.code !== 'EENVELOPE');
}

/** The message to one address, text and HTML (shared/notify/email-message.ts); with the unsubscribe link of a stored channel (`channelId`). */
function messageTo(to: string, alert: Alert, details: EmailDetails, config: NotifyConfig, channelId: string | undefined): SendMailOptions {
  const unsubscribe = channelId && `${config.baseUrl}/integrations/unsubscribe/${addressToken('unsubscribe', channelId, to, config.secretKey)}`;
  const { text, html } = emailParts(alert, details, unsubscribe || undefined);
  const headers = unsubscribe ? { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : undefined;
  return { from: config.fromEmail, to, subject: `${statusWordOf(alert)} | ${labelOf(alert)}`, text, html, headers };
}

/** The `email` kind. */
export const email: Provider<EmailSettings> = {
  main: 'address',
  schema: Joi.object({ address: Joi.string().email({ tlds: false, multiple: true }).required() }),
  async send({ settings, alert, config, signal, channel, projectId }) {
    const timeoutMs = config.attemptTimeoutMs;
    const transport = nodemailer.createTransport({
      url: config.smtpUrl,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    const aborted = new Promise<never>((_resolve, reject) => {
      // deliver() aborts the signal with the DeliveryError of the attempt's timeout.
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
    const unconfirmed = channel.unconfirmed ?? [];
    const recipients = splitAddresses(settings.address).filter((address) => !unconfirmed.includes(address));
    if (recipients.length === 0) throw new DeliveryError('email address not confirmed by its owner yet', false);
    const sending = (async () => {
      const details = await emailDetailsOf(alert, projectId);
      for (const to of recipients) await transport.sendMail(messageTo(to, alert, details, config, channel._id));
    })();
    try {
      await Promise.race([sending.catch((err: unknown) => Promise.reject(deliveryErrorOf(err))), aborted]);
    } finally {
      transport.close();
    }
  },
};
