/**
 * Inbound email as a signal (behaviour.md §5): check addresses, and the
 * classification of a message by the check's keyword settings. Pure: the MIME
 * parsing and HTML-to-text conversion happen in server/smtpd before this runs.
 */
import { classifyText, splitKeywords, type KeywordSettings } from './keywords.js';
import type { Signal } from './status.js';

/** The check fields email classification reads. */
export interface EmailFilterSettings extends KeywordSettings {
  filterSubject: boolean;
  filterBody: boolean;
  /** Keywords came from the deprecated `subject`/`subject_fail` (behaviour.md §3.11 rule 4). */
  legacySubject: boolean;
}

/** The parts of a message keyword filters look at, already decoded. */
export interface EmailContent {
  /** `Subject` header with RFC 2047 encoded words decoded; `""` when absent. */
  subject: string;
  /** The plain-text part, or null when the message has none. */
  text: string | null;
  /** The HTML part as text (tags stripped, script/style skipped, whitespace collapsed), or null. */
  htmlText: string | null;
}

/** A recipient mailbox that names a check (behaviour.md §5 rule 1). */
export type EmailTarget = { kind: 'uuid'; uuid: string } | { kind: 'slug'; pingKey: string; slug: string };

/** Why a recipient was refused, as the SMTP reply text after the 550 code. */
export type RecipientRejection = '5.1.1 Recipient rejected' | '5.1.1 Invalid mailbox';

const UUID_MAILBOX_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A project ping key is 22 URL-safe characters; the slug alphabet is that of ping URLs, lowercase only. */
const SLUG_MAILBOX_RE = /^([A-Za-z0-9_-]{22})\+([a-z0-9_-]+)$/;

/**
 * A check's inbound email address, `<uuid>@<domain>`. Meant for the Check
 * JSON of read-write keys (the `email` field).
 *
 * @param uuid - The check UUID, canonical lowercase.
 * @param domain - The ping email domain (config `pingEmailDomain`).
 */
export function checkEmailAddress(uuid: string, domain: string): string {
  return `${uuid}@${domain}`;
}

/**
 * Reads an RCPT TO address (behaviour.md §5 rule 1). The domain is compared
 * case-insensitively; a UUID mailbox is accepted in any case and returned
 * lowercase, since mail systems may change the case of a local part.
 *
 * @param address - The envelope recipient, `mailbox@domain`.
 * @param domain - The ping email domain, lowercase.
 * @returns The check the mailbox names, or the rejection to send.
 */
export function parseRecipient(address: string, domain: string): EmailTarget | RecipientRejection {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== domain) return '5.1.1 Recipient rejected';
  const mailbox = address.slice(0, at);
  if (UUID_MAILBOX_RE.test(mailbox)) return { kind: 'uuid', uuid: mailbox.toLowerCase() };
  const slug = SLUG_MAILBOX_RE.exec(mailbox);
  if (slug) return { kind: 'slug', pingKey: slug[1], slug: slug[2] };
  return '5.1.1 Invalid mailbox';
}

/**
 * The text keywords are matched in (behaviour.md §5 rule 3): the subject if
 * `filterSubject`, then the plain-text part and the HTML-as-text if
 * `filterBody`, joined with newlines; absent parts are left out.
 */
export function emailText(settings: EmailFilterSettings, content: EmailContent): string {
  const chunks: string[] = [];
  if (settings.filterSubject) chunks.push(content.subject);
  if (settings.filterBody) {
    if (content.text !== null) chunks.push(content.text);
    if (content.htmlText !== null) chunks.push(content.htmlText);
  }
  return chunks.join('\n');
}

/**
 * Classifies an email (behaviour.md §5 rules 2–6, §3.11 rule 4).
 *
 * - No filter on: `success`.
 * - Otherwise failure, then success, then start keywords.
 * - Nothing matched: `success` for a legacy-configured check with no success
 *   keywords (the seed: an empty `subject` makes every email a success unless
 *   it matches the failure keywords); else `fail` with `filterDefaultFail`;
 *   else `ign`.
 *
 * `filterHttpBody` plays no part. A paused check with `manual_resume` turns
 * the result into `ign` later, in `applySignal`.
 */
export function classifyEmail(settings: EmailFilterSettings, content: EmailContent): Signal {
  if (!settings.filterSubject && !settings.filterBody) return 'success';
  const signal = classifyText(emailText(settings, content), { ...settings, filterDefaultFail: false });
  if (signal !== 'ign') return signal;
  if (settings.legacySubject && splitKeywords(settings.successKw).length === 0) return 'success';
  return settings.filterDefaultFail ? 'fail' : 'ign';
}
