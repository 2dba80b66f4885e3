/**
 * A check's description as the check page shows it: its line breaks kept and its http(s) URLs made links. The result
 * is data, not HTML: views/check.eta escapes every piece and gives each link `rel="nofollow noopener"`.
 */

/** A piece of a line: plain text, or a URL to link to (`text` is the URL as written). */
export type DescPart = { text: string; href?: undefined } | { text: string; href: string };

/** An http(s) URL up to the next space or angle bracket or quote. */
const URL_RE = /\bhttps?:\/\/[^\s<>"']+/g;
/** Punctuation that ends a sentence rather than a URL: left outside the link. */
const TRAILING_RE = /[.,;:!?)\]]+$/;

/** The pieces of one line, in order; a URL's trailing punctuation stays text. */
function partsOf(line: string): DescPart[] {
  const parts: DescPart[] = [];
  let at = 0;
  for (const match of line.matchAll(URL_RE)) {
    const url = match[0].replace(TRAILING_RE, '');
    if (match.index > at) parts.push({ text: line.slice(at, match.index) });
    parts.push({ text: url, href: url });
    at = match.index + url.length;
  }
  if (at < line.length) parts.push({ text: line.slice(at) });
  return parts;
}

/**
 * `desc` as lines of pieces: one entry per line (`\r\n`, `\r` or `\n`), an empty line as `[]`.
 *
 * @param desc - The check's description as stored; `""` gives no lines.
 * @returns The lines, each its text and link pieces.
 */
export function descLines(desc: string): DescPart[][] {
  if (!desc) return [];
  return desc.split(/\r\n|\r|\n/).map(partsOf);
}
