/**
 * `email` through the relay at `config.smtpUrl` to the value's address(es); SMTP 4xx and connection errors are
 * retried, 5xx (mailbox unknown, relay refused) are not.
 */
import Joi from 'joi';
import nodemailer from 'nodemailer';
import { escapeHtml, labelOf, textOf, statusWordOf } from '../message.js';
import { DeliveryError, type Provider } from '../types.js';

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

/** The `email` kind. */
export const email: Provider<EmailSettings> = {
  main: 'address',
  schema: Joi.object({ address: Joi.string().email({ tlds: false, multiple: true }).required() }),
  async send({ settings, alert, config, signal }) {
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
    const text = textOf(alert);
    const sending = transport.sendMail({
      from: config.fromEmail,
      to: settings.address,
      subject: `${statusWordOf(alert)} | ${labelOf(alert)}`,
      text,
      html: `<pre>${escapeHtml(text)}</pre>`,
    });
    try {
      await Promise.race([sending.catch((err: unknown) => Promise.reject(deliveryErrorOf(err))), aborted]);
    } finally {
      transport.close();
    }
  },
};
