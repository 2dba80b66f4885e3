/**
 * What a ping request tells about its sender (docs/pinging.md, "What a ping records", "Recording a ping"): the stored body and `ua` (`remote_addr` and `scheme`: server/proxy.ts). No JSON parsing:
 * the body is kept as raw bytes, whatever the method, Content-Type or encoding.
 */
import type { IncomingMessage } from 'node:http';

/** `ua` is cut to this many characters (docs/pinging.md, "What a ping records"). */
const UA_MAX_CHARS = 200;

/** A ping body as read: the kept bytes, and whether reading stopped at the read cap. */
export interface PingBody {
  /** The first `limitBytes` bytes, or null when the body is empty. */
  body: Buffer | null;
  /** True when more than `capBytes` arrived: the rest was not read, and the connection should close after the answer. */
  cut: boolean;
}

/**
 * Reads the request body (not yet consumed), keeping its first `limitBytes` bytes. Bytes beyond that are read and dropped up to `capBytes` in all, so
 * a larger body is never rejected (docs/pinging.md, "Recording a ping"); past `capBytes` reading stops at once, so a huge body is answered without waiting for
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

/** The ping's `ua` (docs/pinging.md, "What a ping records"): User-Agent cut to 200 characters, or `""`; header values are latin1, so a slice cannot split a character. */
export function uaOf(req: IncomingMessage): string {
  return (req.headers['user-agent'] ?? '').slice(0, UA_MAX_CHARS);
}
