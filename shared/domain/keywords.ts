/**
 * Keyword classification of a text (behaviour.md §4.4, §5 rules 4–5), shared
 * by the HTTP body filter and inbound email. Pure.
 */
import type { Signal } from './status.js';

/** The check fields keyword matching reads. */
export interface KeywordSettings {
  startKw: string;
  successKw: string;
  failureKw: string;
  filterDefaultFail: boolean;
}

/**
 * Splits a comma-separated keyword list: each keyword trimmed, empty ones dropped.
 *
 * @param list - For example `"SUCCESS, OK"`.
 */
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

/**
 * Classifies `text`: failure, then success, then start; when nothing matches,
 * `fail` if `filterDefaultFail` is on, else `ign`.
 */
export function classifyText(text: string, kw: KeywordSettings): Signal {
  if (matchesAny(text, kw.failureKw)) return 'fail';
  if (matchesAny(text, kw.successKw)) return 'success';
  if (matchesAny(text, kw.startKw)) return 'start';
  return kw.filterDefaultFail ? 'fail' : 'ign';
}
