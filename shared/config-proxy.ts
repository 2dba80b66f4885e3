/**
 * Which peers are proxies (docs/configuration.md, TRUSTED_PROXIES; docs/security.md): X-Forwarded-For,
 * X-Forwarded-Proto and REMOTE_USER_HEADER are believed only from a socket peer in TRUSTED_PROXIES, a comma-separated
 * list of addresses and CIDR ranges (proxy-addr's `loopback`, `linklocal` and `uniquelocal` too). Default: none.
 * TRUST_PROXY (hops) then says how many of them stand in front; it is 1 by default once TRUSTED_PROXIES is set.
 */
import Joi from 'joi';
import proxyaddr from 'proxy-addr';

/** The proxy settings. */
export interface ProxyConfig {
  /** Proxies in front of the web process whose X-Forwarded-For/-Proto are believed (server/proxy.ts); 0 believes none. */
  readonly trustProxy: number;
  /** Peers whose proxy headers are believed: addresses, CIDR ranges or proxy-addr's names; empty: nobody's. */
  readonly trustedProxies: readonly string[];
}

/** The settings' variables as the environment schema returns them. */
export interface ProxyEnv {
  readonly TRUST_PROXY?: number | boolean;
  readonly TRUSTED_PROXIES: string;
}

/** The entries of TRUSTED_PROXIES, trimmed, empty ones left out. */
function entriesOf(list: string): string[] {
  return list.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/** Joi keys of the proxy settings ({@link ProxyEnv}), merged into the environment schema of `shared/config.ts`. */
export const proxySchemaKeys = {
  // A hop count; `true` is one proxy (Heroku's router), `false` none.
  TRUST_PROXY: Joi.alternatives().try(Joi.number().integer().min(0).max(10), Joi.boolean()),
  TRUSTED_PROXIES: Joi.string()
    .allow('')
    .default('')
    .custom((value: string, helpers) => {
      for (const entry of entriesOf(value)) {
        try {
          proxyaddr.compile(entry);
        } catch {
          return helpers.message({ custom: `TRUSTED_PROXIES has "${entry}", which is not an address or a CIDR range` });
        }
      }
      return value;
    }),
};

/** The proxy settings from the Joi-validated environment. */
export function proxyConfigOf(value: ProxyEnv): ProxyConfig {
  const trustedProxies = entriesOf(value.TRUSTED_PROXIES);
  const given = value.TRUST_PROXY;
  const trustProxy = given === undefined ? (trustedProxies.length > 0 ? 1 : 0) : Number(given);
  return { trustProxy, trustedProxies };
}

/**
 * What the web process says at start about its proxy settings (one warning line each), given the settings and
 * whether a proxy user header is set.
 * @returns The warnings; empty when the settings are consistent.
 */
export function proxyWarnings(proxy: ProxyConfig, remoteUserHeader: string | null, baseUrl: string): string[] {
  const warnings: string[] = [];
  if (remoteUserHeader && proxy.trustedProxies.length === 0) {
    warnings.push('REMOTE_USER_HEADER is set but TRUSTED_PROXIES is empty: every request carrying the header is refused (400); set TRUSTED_PROXIES to the proxy’s addresses');
  }
  if (proxy.trustProxy > 0 && proxy.trustedProxies.length === 0) {
    warnings.push('TRUST_PROXY is set but TRUSTED_PROXIES is empty: X-Forwarded-For and X-Forwarded-Proto are believed from nobody; set TRUSTED_PROXIES to the proxy’s addresses');
  }
  if (baseUrl.startsWith('https:') && (proxy.trustProxy === 0 || proxy.trustedProxies.length === 0)) {
    warnings.push('BASE_URL is https but no proxy is trusted: sessions cannot sign in behind the proxy; set TRUSTED_PROXIES (and TRUST_PROXY)');
  }
  return warnings;
}
