/** Settings of the web app's pages (docs/web-app.md); tests pass their own, the service takes them from config. */
import { config } from '../../../shared/config.js';
import type { SsoConfig } from '../../../shared/config-sso.js';

/** What the pages need beyond the app's connections. */
export interface WebOptions {
  /** Signs session cookies and invitation links; a different value signs everyone out and voids the links. */
  secretKey: string;
  /** Whether `/signup/` is open to anyone (REGISTRATION_OPEN); an invitation link opens it either way. */
  registrationOpen: boolean;
  /** Site root for links shown to people (invitations, ping URLs); no trailing slash. */
  baseUrl: string;
  /** Prefix of the pages' Redis keys (sessions, sign-in limits). */
  keyPrefix: string;
  /** Proxies in front whose X-Forwarded-For/-Proto are believed (server/proxy.ts), for the per-client limits and the session's Secure cookie. */
  trustProxy: number;
  /** Peers that may be those proxies (TRUSTED_PROXIES); their REMOTE_USER_HEADER is believed too. */
  trustedProxies: readonly string[];
  /** Single sign-on: OpenID Connect, a proxy's user header, whether passwords sign in (shared/config-sso.ts). */
  sso: SsoConfig;
  /** Relay of the account mails (invitations, reset and sign-in links, address confirmations): SMTP_URL. */
  smtpUrl: string;
  /** Sender of those mails: DEFAULT_FROM_EMAIL. */
  fromEmail: string;
}

/** The service's settings: config.ts's SECRET_KEY, REGISTRATION_OPEN, BASE_URL, QUEUE_PREFIX, TRUST_PROXY, TRUSTED_PROXIES, single sign-on, SMTP_URL and DEFAULT_FROM_EMAIL. */
export function webOptionsOf(): WebOptions {
  return {
    secretKey: config.secretKey,
    registrationOpen: config.registrationOpen,
    baseUrl: config.baseUrl,
    keyPrefix: `${config.queuePrefix}:web`,
    trustProxy: config.trustProxy,
    trustedProxies: config.trustedProxies,
    sso: config.sso,
    smtpUrl: config.notify.smtpUrl,
    fromEmail: config.notify.fromEmail,
  };
}
