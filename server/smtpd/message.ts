/**
 * MIME parsing of an inbound message into the parts keyword filters read
 * (behaviour.md §5 rule 3), with mailparser and html-to-text.
 */
import { simpleParser } from 'mailparser';
import { compile, type SelectorDefinition } from 'html-to-text';
import type { EmailContent } from '../../shared/domain/email.js';

/**
 * html-to-text renders some elements for display: upper-cased headings and
 * table headers, link targets in brackets, image alt texts, list bullets.
 * Keyword matching is case-sensitive and should see only the document's own
 * text, so those are switched off; the reference merely strips tags.
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

/**
 * An HTML document as text: tags stripped, `script` and `style` content
 * skipped, entities decoded, runs of whitespace collapsed to one space.
 *
 * @param html - The decoded HTML part.
 */
export function htmlToPlainText(html: string): string {
  return htmlConverter(html).replace(/\s+/g, ' ').trim();
}

/**
 * Parses a raw message. Headers are decoded (RFC 2047) and parts are decoded
 * from their transfer encoding and charset. A message too broken to parse
 * yields an empty subject and no parts.
 *
 * @param raw - The message as received after DATA, headers included.
 * @returns The subject, the plain-text part(s) and the HTML part(s) as text.
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
