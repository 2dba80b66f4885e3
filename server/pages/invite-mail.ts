/** Sends an invitation link by email through the alert relay (SMTP_URL, DEFAULT_FROM_EMAIL); a failure is logged, never thrown. */
import nodemailer from 'nodemailer';
import { config } from '../../shared/config.js';
import { logger } from '../../shared/logger.js';

const log = logger.child({ module: 'invite-mail' });
/** Longest an invitation email may take, milliseconds. */
const MAIL_TIMEOUT_MS = 10_000;

/**
 * Emails the link in the background; the owner sees the link on the page either way.
 *
 * @param to - The invited address.
 */
export function sendInvitation(to: string, projectName: string, link: string): void {
  const transport = nodemailer.createTransport({
    url: config.notify.smtpUrl,
    connectionTimeout: MAIL_TIMEOUT_MS,
    greetingTimeout: MAIL_TIMEOUT_MS,
    socketTimeout: MAIL_TIMEOUT_MS,
  });
  const text = `You are invited to the project "${projectName}" on ${config.siteName}.\n\nOpen this link to join (it works once, for 7 days):\n${link}\n`;
  transport
    .sendMail({ from: config.notify.fromEmail, to, subject: `Invitation to ${projectName} on ${config.siteName}`, text })
    .catch((err: unknown) => log.warn({ err: String(err) }, 'cannot send an invitation email; the owner has the link'))
    .finally(() => transport.close());
}
