/**
 * What a ping request tells about its sender (behaviour.md §1.5, §4.3 step 5): the stored body, `remote_addr`, `scheme` and `ua`. No JSON parsing:
 * the body is kept as raw bytes, whatever the method, Content-Type or encoding.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** `ua` is cut to this many characters (behaviour.md §1.5). */
const UA_MAX_CHARS = 200;
/** A dotted IPv4 address followed by `:port`, as some proxies (Azure) send in X-Forwarded-For. */
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/;
/** The socket form of an IPv4 peer on a dual-stack listener. */
const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** A ping body as read: the kept bytes, and whether reading stopped at the read cap. */
export interface PingBody {
  /** The first `limitBytes` bytes, or null when the body is empty. */
  body: Buffer | null;
  /** True when more than `capBytes` arrived: the rest was not read, and the connection should close after the answer. */
  cut: boolean;
}

/**
 * Reads the request body (not yet consumed), keeping its first `limitBytes` bytes. Bytes beyond that are read and dropped up to `capBytes` in all, so
 * a larger body is never rejected (behaviour.md §4.3 step 5); past `capBytes` reading stops at once, so a huge body is answered without waiting for
 * it (the caller closes the connection). Never rejects: a client that goes away leaves what arrived so far.
 * @param limitBytes - Bytes to keep (config `pingBodyLimitBytes`, 10000).
 * @param capBytes - Bytes to read at most (config `pingBodyReadCapBytes`, 1 MiB); at least `limitBytes`.
 */
export function readPingBody(req: IncomingMessage, limitBytes: number, capBytes: number): Promise<PingBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let received = 0;
    const finish = (cut: boolean): void => {
      req.removeListener('data', onData);
      resolve({ body: kept === 0 ? null : Buffer.concat(chunks, kept), cut });
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (kept < limitBytes) {
        const part = chunk.length > limitBytes - kept ? chunk.subarray(0, limitBytes - kept) : chunk;
        chunks.push(part);
        kept += part.length;
      }
      if (received > capBytes) {
        req.pause();
        finish(true);
      }
    };
    req.on('data', onData);
    req.once('end', () => finish(false));
    req.once('error', () => finish(false));
    req.once('close', () => finish(false));
  });
}

/** The first comma-separated entry of a header, trimmed; undefined when absent or empty. */
function firstEntry(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const entry = value.split(',', 1)[0].trim();
  return entry === '' ? undefined : entry;
}

/**
 * The ping's `remote_addr` (behaviour.md §1.5). With a trusted proxy (config `trustProxy`), the first X-Forwarded-For entry, with a `:port` after a
 * dotted IPv4 address removed; IPv6 and `::ffff:` forms are kept as given. Otherwise, or without the header, the socket peer, an IPv4-mapped peer
 * written as plain IPv4; null when the socket no longer knows its peer.
 */
export function remoteAddrOf(req: IncomingMessage, trustProxy: boolean): string | null {
  const forwarded = trustProxy ? firstEntry(req.headers['x-forwarded-for']) : undefined;
  if (forwarded !== undefined) return forwarded.replace(IPV4_WITH_PORT, '$1');
  const peer = req.socket.remoteAddress;
  return peer === undefined ? null : peer.replace(IPV4_MAPPED, '$1');
}

/** The ping's `scheme` (behaviour.md §1.5): with `trustProxy` and the header, the first X-Forwarded-Proto entry; else `https` on TLS, or `http`. */
export function schemeOf(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? firstEntry(req.headers['x-forwarded-proto']) : undefined;
  if (forwarded !== undefined) return forwarded;
  return (req.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http';
}

/** The ping's `ua` (behaviour.md §1.5): User-Agent cut to 200 characters, or `""`; header values are latin1, so a slice cannot split a character. */
export function uaOf(req: IncomingMessage): string {
  return (req.headers['user-agent'] ?? '').slice(0, UA_MAX_CHARS);
}
