/** Keyword classification of a text, for the HTTP body filter and email (docs/pinging.md, "Body keywords"; docs/email-pings.md, "What an email means"). Pure. */
import type { Signal } from './status.js';

/** The check fields keyword matching reads. */
export interface KeywordSettings {
  startKw: string;
  successKw: string;
  failureKw: string;
  filterDefaultFail: boolean;
}

/** Splits a comma-separated keyword list (`"SUCCESS, OK"`): each trimmed, empty ones dropped. */
export function splitKeywords(list: string): string[] {
  return list
    .split(',')
    .map((kw) => kw.trim())
    .filter((kw) => kw !== '');
}

/** Whether any keyword of `list` is a case-sensitive substring of `text`. */
export function matchesAny(text: string, list: string): boolean {
  return splitKeywords(list).some((kw) => text.includes(kw));
}

/** Classifies `text`: failure, then success, then start; if none matches, `fail` with `filterDefaultFail`, else `ign`. */
export function classifyText(text: string, kw: KeywordSettings): Signal {
  if (matchesAny(text, kw.failureKw)) return 'fail';
  if (matchesAny(text, kw.successKw)) return 'success';
  if (matchesAny(text, kw.startKw)) return 'start';
  return kw.filterDefaultFail ? 'fail' : 'ign';
}
