/** Single sign-on settings (docs/web-app.md, "Single sign-on"): OpenID Connect and a trusted proxy's user header; shared/config.ts validates them. */
import Joi from 'joi';

/** An OpenID Connect provider the web app signs people in through. */
export interface OidcConfig {
  /** Issuer URL; its `/.well-known/openid-configuration` is read at the first sign-in. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Lowercase email domains allowed to sign in; empty: any. */
  readonly allowedDomains: readonly string[];
  /** The sign-in page's button text. */
  readonly label: string;
  /** ID token `acr` values that mean the provider did multi-factor authentication (OIDC_MFA_ACR); `amr` is read besides. */
  readonly mfaAcr?: readonly string[];
}

/** Single sign-on settings. */
export interface SsoConfig {
  /** Null when OIDC_ISSUER is unset. */
  readonly oidc: OidcConfig | null;
  /** A request header carrying the signed-in person's email, set by a trusted proxy (Healthchecks' REMOTE_USER_HEADER); null when unset. */
  readonly remoteUserHeader: string | null;
  /** Whether email and password sign in (PASSWORD_SIGNIN); only turned off beside a single sign-on. */
  readonly passwordSignIn: boolean;
}

/** The settings' variables as the environment schema returns them. */
export interface SsoEnv {
  readonly OIDC_ISSUER?: string;
  readonly OIDC_CLIENT_ID: string;
  readonly OIDC_CLIENT_SECRET: string;
  readonly OIDC_ALLOWED_DOMAINS: string;
  readonly OIDC_LABEL: string;
  readonly OIDC_MFA_ACR: string;
  readonly REMOTE_USER_HEADER: string;
  readonly PASSWORD_SIGNIN: boolean;
}

/** Joi keys of the single sign-on settings ({@link SsoEnv}), merged into the environment schema of `shared/config.ts`. */
export const ssoSchemaKeys = {
  OIDC_ISSUER: Joi.string().uri({ scheme: ['http', 'https'] }),
  OIDC_CLIENT_ID: Joi.string().allow('').default(''),
  OIDC_CLIENT_SECRET: Joi.string().allow('').default(''),
  OIDC_ALLOWED_DOMAINS: Joi.string().allow('').default(''),
  OIDC_LABEL: Joi.string().default('Sign in with single sign-on'),
  OIDC_MFA_ACR: Joi.string().allow('').default(''),
  REMOTE_USER_HEADER: Joi.string().pattern(/^[A-Za-z0-9-]+$/).allow('').default(''),
  PASSWORD_SIGNIN: Joi.boolean().truthy('1').falsy('0').default(true),
};

/**
 * The single sign-on settings from the Joi-validated environment.
 * @param trustProxy - TRUST_PROXY's hop count: a user header is believed only from a proxy.
 * @throws Error when OIDC_ISSUER comes without OIDC_CLIENT_ID, REMOTE_USER_HEADER without TRUST_PROXY, or
 *   PASSWORD_SIGNIN is off with no single sign-on (nobody could sign in).
 */
export function ssoConfigOf(value: SsoEnv, trustProxy: number): SsoConfig {
  if (value.OIDC_ISSUER && value.OIDC_CLIENT_ID === '') throw new Error('bad configuration: OIDC_ISSUER needs OIDC_CLIENT_ID (and usually OIDC_CLIENT_SECRET)');
  if (value.REMOTE_USER_HEADER !== '' && trustProxy === 0) throw new Error('bad configuration: REMOTE_USER_HEADER needs TRUST_PROXY and TRUSTED_PROXIES (the proxy that sets it)');
  const oidc = value.OIDC_ISSUER
    ? {
        issuer: value.OIDC_ISSUER,
        clientId: value.OIDC_CLIENT_ID,
        clientSecret: value.OIDC_CLIENT_SECRET,
        allowedDomains: value.OIDC_ALLOWED_DOMAINS.split(',').map((d) => d.trim().toLowerCase()).filter((d) => d !== ''),
        label: value.OIDC_LABEL,
        mfaAcr: value.OIDC_MFA_ACR.split(',').map((v) => v.trim()).filter((v) => v !== ''),
      }
    : null;
  const remoteUserHeader = value.REMOTE_USER_HEADER === '' ? null : value.REMOTE_USER_HEADER.toLowerCase();
  if (!value.PASSWORD_SIGNIN && !oidc && !remoteUserHeader) throw new Error('bad configuration: PASSWORD_SIGNIN=false needs OIDC_ISSUER or REMOTE_USER_HEADER');
  return { oidc, remoteUserHeader, passwordSignIn: value.PASSWORD_SIGNIN };
}
