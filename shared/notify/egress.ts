/**
 * Where provider requests may connect. Unless INTEGRATIONS_ALLOW_PRIVATE_IPS is
 * on, a provider request never reaches a loopback, private, link-local,
 * multicast, unspecified or otherwise reserved address, IPv4 or IPv6 (an
 * IPv4-mapped IPv6 address is judged as its IPv4 address), as the reference
 * refuses them. Only addresses in the public unicast range pass.
 *
 * A host name is resolved once, inside the connection: the addresses are
 * checked, and the socket connects to a checked one. A DNS answer that changes
 * between a check and a connect (DNS rebinding) therefore cannot slip through.
 */
import { lookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';

/** Thrown (by the connection, or as its error's cause) when a target address is not public. */
export class PrivateTargetError extends Error {
  /**
   * @param address - The refused IP address.
   * @param range - Its range, in ipaddr.js's words (`loopback`, `private`, `linkLocal`, …).
   */
  constructor(
    readonly address: string,
    readonly range: string,
  ) {
    super(
      `refused to connect to ${address} (${range} address); ` +
        'set INTEGRATIONS_ALLOW_PRIVATE_IPS=true to allow private targets',
    );
    this.name = 'PrivateTargetError';
  }
}

/**
 * The range of an IP address; `unicast` means a public address.
 *
 * @param address - IPv4 or IPv6 text, an IPv6 zone (`%eth0`) allowed.
 * @returns ipaddr.js's range name; IPv4-mapped IPv6 gives its IPv4 address's range.
 * @throws Error when `address` is not an IP address.
 */
export function addressRange(address: string): string {
  return ipaddr.process(address).range();
}

/**
 * Checks one address.
 *
 * @throws PrivateTargetError unless it is a public unicast address.
 */
export function assertPublicAddress(address: string): void {
  const range = addressRange(address);
  if (range !== 'unicast') throw new PrivateTargetError(address, range);
}

/**
 * Checks a URL whose host is an IP address (the socket does not resolve those,
 * so the guarded lookup never sees them); host names are left to the lookup.
 *
 * @param url - The request URL; an unparsable one is left to the HTTP client.
 * @throws PrivateTargetError for a literal non-public address.
 */
export function assertPublicLiteral(url: string): void {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return;
  }
  if (isIP(host)) assertPublicAddress(host);
}

/**
 * A `lookup` for sockets that resolves the name, keeps the public addresses and
 * fails with {@link PrivateTargetError} when none is left.
 */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const allowed = addresses.filter((a) => addressRange(a.address) === 'unicast');
    const first = allowed[0];
    if (!first) {
      const refused = addresses[0];
      const error = refused ? new PrivateTargetError(refused.address, addressRange(refused.address)) : new Error(`no address for ${hostname}`);
      return callback(error, '', 0);
    }
    if (options.all) return (callback as (e: null, a: typeof allowed) => void)(null, allowed);
    callback(null, first.address, first.family);
  });
};

let guardedAgent: Agent | undefined;

/**
 * The dispatcher for provider requests under the private-address rule.
 *
 * @param allowPrivateIps - config `notify.allowPrivateIps`.
 * @returns undefined (the default dispatcher) when private targets are allowed;
 *   otherwise one shared Agent whose sockets connect only to checked public addresses.
 */
export function providerDispatcher(allowPrivateIps: boolean): Agent | undefined {
  if (allowPrivateIps) return undefined;
  guardedAgent ??= new Agent({ connect: { lookup: publicLookup } });
  return guardedAgent;
}
