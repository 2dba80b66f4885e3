/**
 * What a request says of its sender behind TRUST_PROXY proxies (docs/security.md): the client's address and the scheme.
 * With 0 hops (the default) X-Forwarded-For and X-Forwarded-Proto are ignored, so no client can write them; with n hops
 * the address is the n-th X-Forwarded-For entry from the right (each proxy appends the address it saw), so entries a
 * client wrote itself, further left, are never believed. The ping log's `remote_addr` and `scheme` (behaviour.md §1.5)
 * and the pages' per-client limits read them here.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyaddr from 'proxy-addr';

/** A dotted IPv4 address followed by `:port`, as some proxies (Azure) send in X-Forwarded-For. */
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/;
/** The socket form of an IPv4 peer on a dual-stack listener. */
const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * The client's address: the socket peer (an IPv4-mapped peer written as plain IPv4), or with `hops` trusted proxies
 * the X-Forwarded-For entry the outermost of them added (a `:port` after dotted IPv4 removed, other forms as given,
 * behaviour.md §1.5). Null when the socket no longer knows its peer.
 * @param hops - Proxies in front of the service (config `trustProxy`): 0 believes no header.
 */
export function clientAddressOf(req: IncomingMessage, hops: number): string | null {
  if (req.socket.remoteAddress === undefined) return null;
  // The socket's peer first, then X-Forwarded-For from right to left.
  const chain = hops > 0 ? proxyaddr.all(req) : [req.socket.remoteAddress];
  const index = Math.min(hops, chain.length - 1);
  return index === 0 ? chain[0].replace(IPV4_MAPPED, '$1') : chain[index].replace(IPV4_WITH_PORT, '$1');
}

/**
 * `https` or `http` (behaviour.md §1.5 `scheme`): with trusted proxies, the first X-Forwarded-Proto entry (set by the
 * outermost proxy); else whether the connection is TLS.
 * @param hops - As {@link clientAddressOf}.
 */
export function schemeOf(req: IncomingMessage, hops: number): string {
  const header = hops > 0 ? req.headers['x-forwarded-proto'] : undefined;
  const forwarded = (Array.isArray(header) ? header[0] : header)?.split(',', 1)[0].trim();
  if (forwarded) return forwarded;
  return (req.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http';
}
