/**
 * Single sign-on (docs/web-app.md, "Single sign-on"): OpenID Connect through openid-client (authorization code with
 * PKCE, `state` and `nonce`, the provider found by discovery), and Healthchecks' REMOTE_USER_HEADER mode behind a
 * trusted proxy. A person is matched by email, or gets an account on first sign-in; the provider must say the address
 * is verified, and OIDC_ALLOWED_DOMAINS may narrow which ones. An account made otherwise is linked at its first
 * OpenID Connect sign-in only after its own second factor, or its password when it has none (server/pages/account/sso-link.ts);
 * a linked account with a second factor is still asked for it, unless the ID token says the provider did multi-factor
 * authentication (`amr`, or an `acr` named in OIDC_MFA_ACR). A refused answer gets a page with the reason and signs
 * no one in.
 */
import { randomBytes } from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type * as Oidc from 'openid-client';
import { AppError } from '../../../shared/errors.js';
import { User, type UserDoc } from '../../../shared/models/user.js';
import { awaitLinkPassword, linkSso, ssoLinkRouter } from './sso-link.js';
import type { AccountLimits } from '../kit/limits.js';
import { createUser, normaliseEmail } from '../../../shared/services/users.js';
import type { Clock } from '../../../shared/clock.js';
import type { OidcConfig } from '../../../shared/config-sso.js';
import { logger } from '../../../shared/logger.js';
import { currentUser, render } from '../kit/render.js';
import { awaitSecondFactor } from './two-factor.js';
import { hasSecondFactor } from '../../../shared/services/second-factor.js';
import { safeNext } from '../kit/forms.js';
import { fromTrustedProxy, peerOf } from '../../proxy.js';
import type { UserSessions } from './sessions.js';
import type { WebOptions } from '../kit/options.js';

const log = logger.child({ module: 'sso' });
/** How long a sign-in may stay at the provider, milliseconds. */
const AT_PROVIDER_MS = 10 * 60_000;

/** Amr values (RFC 8176) that say the provider asked for more than one factor. */
const MFA_AMR = ['mfa', 'otp', 'hwk'];

/** Whether the ID token says the provider did multi-factor authentication: `amr` (RFC 8176) or an `acr` the operator names. */
export function providerDidMfa(claims: Record<string, unknown>, mfaAcr: readonly string[]): boolean {
  const amr = Array.isArray(claims.amr) ? claims.amr : [];
  return amr.some((value) => MFA_AMR.includes(String(value))) || (typeof claims.acr === 'string' && mfaAcr.includes(claims.acr));
}

/**
 * The account of a person the identity provider (or the proxy) vouches for, and whether it is linked to single
 * sign-on: found by address (nothing of it changed), or made linked with a random password nobody knows (they sign in
 * through the provider; a reset link by mail can set one).
 * @throws AppError(400) for an address that is not one.
 */
export async function userForSso(email: string, now: Date): Promise<{ user: UserDoc; linked: boolean }> {
  const address = normaliseEmail(email);
  const found = await User.findOne({ email: address }).lean<UserDoc>();
  if (found) return { user: found, linked: found.ssoLinked === true };
  await createUser(address, randomBytes(24).toString('base64url'), now);
  const made = await User.findOneAndUpdate({ email: address }, { $set: { ssoLinked: true } }, { returnDocument: 'after' }).lean<UserDoc>();
  if (!made) throw new Error(`no account for ${address} right after making it`);
  return { user: made, linked: true };
}

/** openid-client, loaded when single sign-on is set up: most installs never need it in their web processes. */
const openid = () => import('openid-client');

/** The provider's configuration, discovered once (again after a failure); plain http only for a loopback issuer (tests, development). */
function discoverer(settings: OidcConfig): () => Promise<Oidc.Configuration> {
  let found: Promise<Oidc.Configuration> | null = null;
  return () => {
    const issuer = new URL(settings.issuer);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
    found ??= openid()
      .then((oidc) => oidc.discovery(issuer, settings.clientId, settings.clientSecret, undefined, loopback ? { execute: [oidc.allowInsecureRequests] } : undefined))
      .catch((err: unknown) => {
        found = null;
        throw err;
      });
    return found;
  };
}

/** Routes of OpenID Connect sign-in: `/signin/oidc` (to the provider), `/signin/oidc/callback` (back) and `/signin/oidc/link`. */
export function oidcRouter(options: WebOptions, sessions: UserSessions, limits: AccountLimits, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const settings = options.sso.oidc;
  if (!settings) return router;
  router.use(ssoLinkRouter(sessions, limits, clock));
  const configuration = discoverer(settings);
  const redirectUri = `${options.baseUrl}/signin/oidc/callback`;
  const refused = (req: Request, res: Response, reason: string) => render(req, res, 'error', { title: 'Sign-in refused', status: 400, message: `single sign-on refused: ${reason}` }, 400);

  router.get('/signin/oidc', async (req, res) => {
    const oidc = await openid();
    let provider: Oidc.Configuration;
    try {
      provider = await configuration();
    } catch (err) {
      log.warn({ err: String(err) }, 'cannot read the identity provider’s configuration');
      throw new AppError(502, 'the identity provider cannot be reached: try again later, or sign in with your password');
    }
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    req.session.oidc = { verifier, state, nonce, next: safeNext(req.query.next), until: clock().getTime() + AT_PROVIDER_MS };
    const challenge = await oidc.calculatePKCECodeChallenge(verifier);
    res.redirect(303, oidc.buildAuthorizationUrl(provider, { redirect_uri: redirectUri, scope: 'openid email', code_challenge: challenge, code_challenge_method: 'S256', state, nonce }).href);
  });

  router.get('/signin/oidc/callback', async (req, res) => {
    const started = req.session.oidc;
    delete req.session.oidc;
    if (!started || started.until <= clock().getTime()) return refused(req, res, 'this sign-in has expired or was not started here; start again');
    const oidc = await openid();
    let claims: Record<string, unknown> | undefined;
    try {
      const provider = await configuration();
      // The registered redirect URI with the answer's query (BASE_URL may have a path the request's URL does not show).
      const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      const tokens = await oidc.authorizationCodeGrant(provider, new URL(`${redirectUri}${query}`), {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
        expectedNonce: started.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      // Many providers put the address in the UserInfo answer only, not in the ID token.
      claims = idToken?.email === undefined && idToken ? await oidc.fetchUserInfo(provider, tokens.access_token, idToken.sub) : idToken;
    } catch (err) {
      return refused(req, res, `the identity provider’s answer did not check out (${(err as Error).message})`);
    }
    if (typeof claims?.email !== 'string' || claims.email_verified !== true) return refused(req, res, 'the identity provider did not vouch for an email address');
    const domain = claims.email.split('@').pop()?.toLowerCase() ?? '';
    if (settings.allowedDomains.length > 0 && !settings.allowedDomains.includes(domain)) return refused(req, res, `addresses at ${domain} may not sign in here`);
    const { user, linked } = await userForSso(claims.email, clock());
    // The provider vouches for the address, not for this account: an unlinked one first proves it is the same person.
    if (!linked && hasSecondFactor(user)) return res.redirect(303, await awaitSecondFactor(req, user, started.next, clock(), { link: true }));
    if (!linked) return res.redirect(303, await awaitLinkPassword(req, user, started.next, clock()));
    // A second factor enrolled here is still asked for, unless the provider says it asked for one itself.
    if (hasSecondFactor(user) && !providerDidMfa(claims, settings.mfaAcr ?? [])) return res.redirect(303, await awaitSecondFactor(req, user, started.next, clock()));
    await sessions.signIn(req, user, clock());
    res.redirect(303, started.next);
  });
  return router;
}

/**
 * Signs in the person a trusted proxy names in REMOTE_USER_HEADER, on any page; without the header, nothing changes.
 * The header from a peer not in TRUSTED_PROXIES (a client reaching the port directly) is refused and logged.
 * @throws AppError(400) for the header from an untrusted peer, or a value that is not an email address.
 */
export function remoteUser(options: Pick<WebOptions, 'sso' | 'trustProxy' | 'trustedProxies'>, sessions: UserSessions, clock: Clock): RequestHandler {
  const header = options.sso.remoteUserHeader;
  return async (req, res, next) => {
    const email = header ? req.get(header) : undefined;
    if (email === undefined) return next();
    if (!fromTrustedProxy(req, options)) {
      log.warn({ peer: peerOf(req), header, path: req.path }, 'proxy header from an untrusted peer refused');
      return next(new AppError(400, `the ${header} header is accepted only from the site’s proxy`));
    }
    if (!email) return next();
    let user: UserDoc;
    try {
      const found = await userForSso(email, clock());
      user = found.user;
      // The trusted proxy authenticated the person: the account is theirs (nothing of it is removed).
      if (!found.linked) await linkSso(user._id);
    } catch {
      return next(new AppError(400, `the proxy’s ${header} header is not an email address`));
    }
    if (currentUser(res)?._id !== user._id) {
      await sessions.signIn(req, user, clock());
      res.locals.user = user;
    }
    next();
  };
}
