/**
 * A ping as the check page words it (docs/web-app.md, "A check's page"): its kind ("exit status 3"), its source
 * ("HTTPS POST from 203.0.113.7", "Email from ops\@example.org") and its body as text, or "binary, N bytes" when the
 * bytes are not UTF-8 text. Pure: the templates escape what these return.
 */
import mongoose from 'mongoose';
import type { PingDoc } from '../../../shared/models/ping.js';

/** Characters of a body the events list previews. */
export const PREVIEW_CHARS = 100;

/** Control characters that mark bytes as binary even when they decode as UTF-8 (tab, LF and CR are text). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Kind names as the page shows them; `ign` is "ignored", as in the reference's log. */
const KIND_WORDS: Record<PingDoc['kind'], string> = { success: 'success', start: 'start', fail: 'fail', log: 'log', ign: 'ignored' };

/** "success", "start", "fail", "log", "ignored", or "exit status n" for a ping sent with an exit status. */
export function kindWords(ping: Pick<PingDoc, 'kind' | 'exitStatus'>): string {
  return ping.exitStatus !== null && ping.exitStatus !== undefined ? `exit status ${ping.exitStatus}` : KIND_WORDS[ping.kind];
}

/** "HTTP POST from 203.0.113.7", "HTTPS GET from an unknown address", or the email ping's `ua` ("Email from <sender>", docs/pinging.md, "What a ping records"). */
export function sourceWords(ping: Pick<PingDoc, 'scheme' | 'method' | 'remoteAddr' | 'ua'>): string {
  if (ping.scheme === 'email') return ping.ua;
  return `${ping.scheme.toUpperCase()} ${ping.method} from ${ping.remoteAddr ?? 'an unknown address'}`;
}

/** A stored body's bytes: a lean read gives the driver's `Binary`, a document a `Buffer`; empty for none. */
export function bytesOf(body: Buffer | mongoose.mongo.Binary | null | undefined): Buffer {
  if (!body) return Buffer.alloc(0);
  if (body instanceof mongoose.mongo.Binary) return Buffer.from(body.buffer.subarray(0, body.position));
  return Buffer.from(body);
}

/** The body as text, or null when it is not UTF-8 or holds control characters (a binary body). */
export function bodyText(body: Buffer): string | null {
  try {
    const text = utf8.decode(body);
    return CONTROL.test(text) ? null : text;
  } catch {
    return null;
  }
}

/** A body's line in the events list: null for none, the first {@link PREVIEW_CHARS} characters, or "binary, N bytes". */
export function bodyPreview(body: Buffer): string | null {
  if (body.length === 0) return null;
  const text = bodyText(body);
  if (text === null) return `binary, ${body.length} bytes`;
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}
