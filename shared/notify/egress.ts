/**
 * Where provider requests may connect: unless INTEGRATIONS_ALLOW_PRIVATE_IPS, public unicast addresses only, as the
 * reference. A name is resolved once, inside the connection, so DNS rebinding cannot slip through (docs/alerts.md, "Private addresses").
 */
import { lookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';

/** Thrown (by the connection, or as its error's cause) when a target is not public; `range` in ipaddr.js's words. */
export class PrivateTargetError extends Error {
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
 * The ipaddr.js range of an IP address (`unicast`: public; IPv4-mapped IPv6 gets its IPv4 range).
 * @throws Error when `address` is not an IP address.
 */
export function addressRange(address: string): string {
  return ipaddr.process(address).range();
}

/** @throws PrivateTargetError unless `address` is a public unicast address. */
export function assertPublicAddress(address: string): void {
  const range = addressRange(address);
  if (range !== 'unicast') throw new PrivateTargetError(address, range);
}

/**
 * Checks a URL whose host is an IP literal, which the guarded lookup never sees; names and bad URLs pass.
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

/** A socket `lookup` keeping only public addresses; {@link PrivateTargetError} when none is left. */
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

/** Provider requests' dispatcher: undefined (the default) if private targets are allowed, else one guarded Agent. */
export function providerDispatcher(allowPrivateIps: boolean): Agent | undefined {
  if (allowPrivateIps) return undefined;
  guardedAgent ??= new Agent({ connect: { lookup: publicLookup } });
  return guardedAgent;
}
