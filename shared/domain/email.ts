/** Inbound email as a signal (docs/email-pings.md): check addresses and keyword classification. Pure. */
import { classifyText, splitKeywords, type KeywordSettings } from './keywords.js';
import type { Signal } from './status.js';

/** The check fields email classification reads. */
export interface EmailFilterSettings extends KeywordSettings {
  filterSubject: boolean;
  filterBody: boolean;
  /** Keywords came from the deprecated `subject`/`subject_fail` (docs/api-reference.md, "Deprecated subject fields"). */
  legacySubject: boolean;
}

/** The decoded parts keyword filters look at: subject (`""` when absent), plain-text part, HTML part as text. */
export interface EmailContent {
  subject: string;
  text: string | null;
  htmlText: string | null;
}

/** A recipient mailbox that names a check (docs/email-pings.md, "Addresses"). */
export type EmailTarget = { kind: 'uuid'; uuid: string } | { kind: 'slug'; pingKey: string; slug: string };

/** Why a recipient was refused, as the SMTP reply text after the 550 code. */
export type RecipientRejection = '5.1.1 Recipient rejected' | '5.1.1 Invalid mailbox';

const UUID_MAILBOX_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A project ping key is 22 URL-safe characters; the slug alphabet is that of ping URLs, lowercase only. */
const SLUG_MAILBOX_RE = /^([A-Za-z0-9_-]{22})\+([a-z0-9_-]+)$/;

/** A check's inbound email address, `<uuid>@<domain>` (config `pingEmailDomain`). */
export function checkEmailAddress(uuid: string, domain: string): string {
  return `${uuid}@${domain}`;
}

/**
 * Reads an RCPT TO address (docs/email-pings.md, "Addresses"): the check it names, or the rejection to send. `domain` is
 * lowercase; a UUID mailbox is accepted in any case, since mail systems may change the case of a local part.
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

/** The text keywords are matched in (docs/email-pings.md, "What an email means"): subject and/or body parts, joined with newlines. */
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
 * Classifies an email (docs/email-pings.md, "What an email means"; docs/api-reference.md, "Deprecated subject fields"): `success` with no filter on; else failure, success,
 * start keywords; if none matched, `success` for a legacy-configured check with no success keywords (an empty
 * `subject` makes every non-failing email a success: docs/api-reference.md, "Deprecated subject fields"), else `fail` with `filterDefaultFail`, else `ign`. A paused
 * check with `manual_resume` turns it into `ign` later, in `applySignal`.
 */
export function classifyEmail(settings: EmailFilterSettings, content: EmailContent): Signal {
  if (!settings.filterSubject && !settings.filterBody) return 'success';
  const signal = classifyText(emailText(settings, content), { ...settings, filterDefaultFail: false });
  if (signal !== 'ign') return signal;
  if (settings.legacySubject && splitKeywords(settings.successKw).length === 0) return 'success';
  return settings.filterDefaultFail ? 'fail' : 'ign';
}
