/**
 * Account mails (invitations, reset and sign-in links, address confirmations) through WebOptions' relay (SMTP_URL,
 * from DEFAULT_FROM_EMAIL): a text part and an HTML part rendered by `views/mail.eta`, which escapes every value.
 */
import nodemailer from 'nodemailer';
import type { WebOptions } from './options.js';
import { renderMail } from './render.js';

/** Longest a mail may take, milliseconds. */
const MAIL_TIMEOUT_MS = 10_000;

/** One mail: paragraphs of plain text, and the link it is about. */
export interface PageMail {
  to: string;
  subject: string;
  paragraphs: string[];
  /** Shown as a button in the HTML part and as the bare URL in the text part. */
  link?: { href: string; label: string };
}

/**
 * Sends the mail.
 * @throws the relay's error (nodemailer's) when it is refused or cannot be reached.
 */
export async function sendPageMail(options: Pick<WebOptions, 'smtpUrl' | 'fromEmail'>, mail: PageMail): Promise<void> {
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: MAIL_TIMEOUT_MS,
    greetingTimeout: MAIL_TIMEOUT_MS,
    socketTimeout: MAIL_TIMEOUT_MS,
  });
  const text = [...mail.paragraphs, ...(mail.link ? [`${mail.link.label}:\n${mail.link.href}`] : [])].join('\n\n') + '\n';
  try {
    await transport.sendMail({ from: options.fromEmail, to: mail.to, subject: mail.subject, text, html: renderMail(mail) });
  } finally {
    transport.close();
  }
}
