/**
 * One ping of a check in full for its details page: every stored field, the body as text (or "binary, N bytes"), its
 * duration since its start, and for an email its subject and its text and HTML parts. The HTML part is shown as text
 * (html-to-text), never as HTML: a job's markup is never put into the page.
 */
import { simpleParser } from 'mailparser';
import { convert } from 'html-to-text';
import type { CheckDoc } from '../../../shared/models/check.js';
import { Ping, type PingDoc } from '../../../shared/models/ping.js';
import { AppError } from '../../../shared/errors.js';
import { pairDurations } from '../../presenters/ping.js';
import { bodyText, bytesOf, kindWords, sourceWords } from './ping-text.js';

/** A ping number in a path: a positive whole number. */
const PING_NUMBER_RE = /^[1-9]\d{0,14}$/;
/** Pings read backwards to find a completion's start (docs/checks.md, "Runs"). */
const PAIRING_LOOKBACK = 200;

/** An email ping's parts. */
export interface EmailParts {
  subject: string;
  text: string | null;
  /** The HTML part converted to text, null without one. */
  htmlText: string | null;
}

/** A ping as its details page shows it. */
export interface PingDetails {
  ping: PingDoc;
  words: string;
  source: string;
  /** The body's size in bytes, 0 for none. */
  size: number;
  /** The body as UTF-8 text; null when none or binary. */
  text: string | null;
  durationMs: number | null;
  email: EmailParts | null;
}

/** Parses an email ping's raw message; a message too broken to parse gives an empty subject and no parts. */
async function emailParts(raw: Buffer): Promise<EmailParts> {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true }).catch(() => null);
  if (!mail) return { subject: '', text: null, htmlText: null };
  const html = typeof mail.html === 'string' ? convert(mail.html, { wordwrap: 100 }) : null;
  return { subject: mail.subject ?? '', text: mail.text || null, htmlText: html };
}

/**
 * Ping `param` (the path's text) of `check`, body included.
 *
 * @param pingLogLimit - The project's `ping_log_limit`: a ping numbered `n_pings − limit` or lower is pruned.
 * @throws AppError(404) when `param` is not a ping number, or no such ping is kept.
 */
export async function findPing(check: CheckDoc, pingLogLimit: number, param: string): Promise<PingDoc> {
  const n = PING_NUMBER_RE.test(param) ? Number(param) : 0;
  const ping = n > check.nPings - pingLogLimit ? await Ping.findOne({ checkId: check._id, n }).lean<PingDoc>() : null;
  if (!ping) throw new AppError(404, `no ping number ${param} is kept for this check: it may have been pruned from the log`);
  return ping;
}

/** Milliseconds from the start of `ping`'s run (docs/checks.md, "Runs"), null when it is not a completion or has none. */
async function durationOf(ping: PingDoc): Promise<number | null> {
  if (ping.kind !== 'success' && ping.kind !== 'fail') return null;
  const around = await Ping.find({ checkId: ping.checkId, n: { $lte: ping.n, $gt: ping.n - PAIRING_LOOKBACK } }, { n: 1, created: 1, kind: 1, rid: 1 })
    .sort({ n: -1 })
    .lean<PingDoc[]>();
  return pairDurations(around.map((p) => ({ ...p, hasBody: false }))).get(ping.n) ?? null;
}

/** What the details page of `ping` shows. */
export async function pingDetails(ping: PingDoc): Promise<PingDetails> {
  const body = bytesOf(ping.body);
  return {
    ping,
    words: kindWords(ping),
    source: sourceWords(ping),
    size: body.length,
    text: body.length ? bodyText(body) : null,
    durationMs: await durationOf(ping),
    email: ping.scheme === 'email' && body.length ? await emailParts(body) : null,
  };
}
