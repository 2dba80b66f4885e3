/**
 * What a request says of its sender behind proxies (docs/security.md, docs/configuration.md TRUSTED_PROXIES): the
 * client's address and the scheme. X-Forwarded-For and X-Forwarded-Proto are believed only when the socket peer is in
 * TRUSTED_PROXIES; then the address is the `hops`-th X-Forwarded-For entry from the right (each proxy appends the
 * address it saw), so entries a client wrote itself, further left, are never believed. A client reaching the port
 * directly writes nothing it is believed for. The ping log's `remote_addr` and `scheme` (docs/pinging.md, "What a ping records"), the pages'
 * per-client limits, the session's Secure cookie and REMOTE_USER_HEADER read them here.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyaddr from 'proxy-addr';

/** Who is a proxy: how many stand in front (TRUST_PROXY) and the peers that may be one (TRUSTED_PROXIES). */
export interface ProxySettings {
  trustProxy: number;
  trustedProxies: readonly string[];
}

/** Believes no proxy header (the default settings). */
export const NO_PROXY: ProxySettings = { trustProxy: 0, trustedProxies: [] };

/** A dotted IPv4 address followed by `:port`, as some proxies (Azure) send in X-Forwarded-For. */
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/;
/** The socket form of an IPv4 peer on a dual-stack listener. */
const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** Compiled TRUSTED_PROXIES lists, by their entries (a process has one or two). */
const compiled = new Map<string, (address: string) => boolean>();

/** Whether `address` is in the list (IPv4-mapped IPv6 addresses match their IPv4 form). */
function inList(list: readonly string[], address: string): boolean {
  if (list.length === 0) return false;
  const key = list.join(',');
  let test = compiled.get(key);
  if (!test) {
    const trust = proxyaddr.compile([...list]);
    test = (a: string) => trust(a, 0);
    compiled.set(key, test);
  }
  return test(address);
}

/** The socket peer's address, an IPv4-mapped one written as plain IPv4; null when the socket no longer knows it. */
export function peerOf(req: IncomingMessage): string | null {
  return req.socket.remoteAddress?.replace(IPV4_MAPPED, '$1') ?? null;
}

/** Whether the request's socket peer is a trusted proxy whose headers are believed. */
export function fromTrustedProxy(req: IncomingMessage, proxy: ProxySettings): boolean {
  const peer = req.socket.remoteAddress;
  return proxy.trustProxy > 0 && peer !== undefined && inList(proxy.trustedProxies, peer);
}

/**
 * The trust function of Express's `trust proxy` setting for these settings (`req.ip`, `req.secure`): the socket
 * peer must be a trusted proxy, and at most `trustProxy` hops are believed.
 */
export function expressTrustOf(proxy: ProxySettings): (address: string, hop: number) => boolean {
  return (address, hop) => hop < proxy.trustProxy && (hop > 0 || inList(proxy.trustedProxies, address));
}

/**
 * The client's address: the socket peer, or from a trusted proxy the X-Forwarded-For entry the outermost of
 * `trustProxy` proxies added (a `:port` after dotted IPv4 removed, other forms as given, docs/pinging.md, "What a ping records"). Null when
 * the socket no longer knows its peer.
 */
export function clientAddressOf(req: IncomingMessage, proxy: ProxySettings): string | null {
  if (req.socket.remoteAddress === undefined) return null;
  if (!fromTrustedProxy(req, proxy)) return peerOf(req);
  // The socket's peer first, then X-Forwarded-For from right to left.
  const chain = proxyaddr.all(req);
  const index = Math.min(proxy.trustProxy, chain.length - 1);
  return index === 0 ? peerOf(req) : chain[index].replace(IPV4_WITH_PORT, '$1');
}

/**
 * `https` or `http` (docs/pinging.md, "What a ping records"): from a trusted proxy, the first X-Forwarded-Proto entry (set by the
 * outermost proxy); else whether the connection is TLS.
 */
export function schemeOf(req: IncomingMessage, proxy: ProxySettings): string {
  const header = fromTrustedProxy(req, proxy) ? req.headers['x-forwarded-proto'] : undefined;
  const forwarded = (Array.isArray(header) ? header[0] : header)?.split(',', 1)[0].trim();
  if (forwarded) return forwarded;
  return (req.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http';
}
