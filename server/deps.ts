/** What the web process shares between requests (server/app.ts and its routes). */
import type { Redis } from 'ioredis';
import type { Clock } from '../shared/clock.js';
import type { OpsConfig } from '../shared/config-ops.js';
import type { PingJournal } from '../shared/pings/journal.js';
import type { Queues } from '../shared/queues/index.js';
import type { WebOptions } from './pages/kit/options.js';
import type { ProxySettings } from './proxy.js';
import { config } from '../shared/config.js';

/** What the web process shares between requests. */
export interface AppDeps {
  clock: Clock;
  /** Redis connection of this process (role `web`). */
  redis: Redis;
  queues: Queues;
  /** Metrics and admin settings; default `config.ops` (tests pass their own). */
  ops?: OpsConfig;
  /** The process's ping journal (shared/pings/journal.ts); without one, a ping is answered once MongoDB has it. */
  journal?: PingJournal;
  /** The web app's settings (server/pages/kit/options.ts); default from config (tests pass their own). */
  web?: WebOptions;
  /** Proxies in front whose headers the ping log believes (server/proxy.ts); default `config.trustProxy` (tests pass their own). */
  trustProxy?: number;
  /** Peers that may be those proxies (server/proxy.ts); default `config.trustedProxies` (tests pass their own). */
  trustedProxies?: readonly string[];
}

/** The proxy settings of the app: the deps' own, else the configuration's. */
export function proxyOf(deps: Pick<AppDeps, 'trustProxy' | 'trustedProxies'>): ProxySettings {
  return { trustProxy: deps.trustProxy ?? config.trustProxy, trustedProxies: deps.trustedProxies ?? config.trustedProxies };
}
