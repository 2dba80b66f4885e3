/** MIME parsing of an inbound message into what keyword filters read (docs/email-pings.md, "What an email means"). */
import { simpleParser } from 'mailparser';
import { compile, type SelectorDefinition } from 'html-to-text';
import type { EmailContent } from '../../shared/domain/email.js';

/**
 * html-to-text's display rendering (upper-cased headings, link targets, alt texts, bullets) switched off: keywords are
 * case-sensitive and should see only the document's text, as the reference's tag stripping gives.
 */
const PLAIN_SELECTORS: SelectorDefinition[] = [
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
  { selector: 'a', options: { ignoreHref: true } },
  { selector: 'img', format: 'skip' },
  { selector: 'ul', options: { itemPrefix: ' ' } },
  { selector: 'ol', format: 'unorderedList', options: { itemPrefix: ' ' } },
  { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
];

const htmlConverter = compile({ wordwrap: false, selectors: PLAIN_SELECTORS });

/** HTML as text: tags stripped, `script`/`style` skipped, entities decoded, whitespace runs collapsed to one space. */
export function htmlToPlainText(html: string): string {
  return htmlConverter(html).replace(/\s+/g, ' ').trim();
}

/**
 * Parses a raw message (headers included): headers (RFC 2047), transfer encodings and charsets decoded; a message too
 * broken to parse gives an empty subject and no parts.
 */
export async function parseMessage(raw: Buffer): Promise<EmailContent> {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true }).catch(
    () => null,
  );
  if (!mail) return { subject: '', text: null, htmlText: null };
  return {
    subject: mail.subject ?? '',
    // skipHtmlToText leaves '' as the text of an HTML-only message; an empty part matches nothing anyway.
    text: mail.text || null,
    htmlText: typeof mail.html === 'string' ? htmlToPlainText(mail.html) : null,
  };
}
