/** Sends an invitation link by email (shared/mail.ts); a failure is logged, never thrown. */
import { config } from '../../../shared/config.js';
import { logger } from '../../../shared/logger.js';
import type { WebOptions } from '../kit/options.js';
import { sendServiceMail } from '../../../shared/mail.js';

const log = logger.child({ module: 'invite-mail' });

/**
 * Emails the link in the background; the owner sees the link on the page either way.
 *
 * @param to - The invited address.
 */
export function sendInvitation(options: WebOptions, to: string, projectName: string, link: string): void {
  const mail = {
    to,
    subject: `Invitation to ${projectName} on ${config.siteName}`,
    paragraphs: [`You are invited to the project "${projectName}" on ${config.siteName}.`, 'The link works once, for 7 days.'],
    link: { href: link, label: 'Open this link to join' },
  };
  sendServiceMail(options, mail).catch((err: unknown) => log.warn({ err: String(err) }, 'cannot send an invitation email; the owner has the link'));
}
