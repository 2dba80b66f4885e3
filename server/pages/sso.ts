/**
 * Single sign-on (issue 31 item 4; docs/web-app.md): OpenID Connect through openid-client (authorization code with
 * PKCE, `state` and `nonce`, the provider found by discovery), and Healthchecks' REMOTE_USER_HEADER mode behind a
 * trusted proxy. A person is matched by email, or gets an account on first sign-in; the provider must say the address
 * is verified, and OIDC_ALLOWED_DOMAINS may narrow which ones. A refused answer gets a page with the reason and signs
 * no one in.
 */
import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type * as Oidc from 'openid-client';
import { AppError } from '../../shared/errors.js';
import { User, type UserDoc } from '../../shared/models/user.js';
import { createUser, normaliseEmail } from '../../shared/services/users.js';
import type { Clock } from '../../shared/clock.js';
import type { OidcConfig } from '../../shared/config-sso.js';
import { logger } from '../../shared/logger.js';
import { currentUser, render } from './render.js';
import { awaitSecondFactor } from './two-factor.js';
import { hasSecondFactor } from '../../shared/services/second-factor.js';
import { safeNext } from './forms.js';
import type { UserSessions } from './sessions.js';
import type { WebOptions } from './options.js';

const log = logger.child({ module: 'sso' });
/** How long a sign-in may stay at the provider, milliseconds. */
const AT_PROVIDER_MS = 10 * 60_000;

/**
 * The account of a person the identity provider (or the proxy) vouches for: found by address (taken over the first
 * time, see below), or made with a random password nobody knows (they sign in through the provider; a reset link by
 * mail can set one).
 * @throws AppError(400) for an address that is not one.
 */
export async function userForSso(email: string, now: Date): Promise<UserDoc> {
  const address = normaliseEmail(email);
  const found = await User.findOne({ email: address }).lean<UserDoc>();
  if (found?.ssoLinked) return found;
  if (found) {
    // The first sign-in through single sign-on into an account made otherwise (open sign-up, an invitation link the
    // inviter also saw): whoever made it may not be the address's owner, so its password, second factors and
    // sessions go; the owner sets a password again by a mailed reset link if they want one.
    const taken = await User.findOneAndUpdate(
      { _id: found._id, ssoLinked: { $ne: true } },
      { $set: { ssoLinked: true, passwordHash: await argon2.hash(randomBytes(24).toString('base64url')), totp: [], webauthn: [], recoveryCodes: [] }, $inc: { sessionEpoch: 1 } },
      { returnDocument: 'after' },
    ).lean<UserDoc>();
    return taken ?? (await User.findById(found._id).lean<UserDoc>()) ?? found;
  }
  await createUser(address, randomBytes(24).toString('base64url'), now);
  const made = await User.findOneAndUpdate({ email: address }, { $set: { ssoLinked: true } }, { returnDocument: 'after' }).lean<UserDoc>();
  if (!made) throw new Error(`no account for ${address} right after making it`);
  return made;
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

/** Routes of OpenID Connect sign-in: `/signin/oidc` (to the provider) and `/signin/oidc/callback` (back). */
export function oidcRouter(options: WebOptions, sessions: UserSessions, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const settings = options.sso.oidc;
  if (!settings) return router;
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
    const user = await userForSso(claims.email, clock());
    // The provider vouches for the address, not for this site's second factor: one enrolled here is still asked for.
    if (hasSecondFactor(user)) return res.redirect(303, await awaitSecondFactor(req, user, started.next, clock()));
    await sessions.signIn(req, user, clock());
    res.redirect(303, started.next);
  });
  return router;
}

/** Signs in the person a trusted proxy names in `header` (REMOTE_USER_HEADER), on any page; without the header, nothing changes. */
export function remoteUser(header: string | null, sessions: UserSessions, clock: Clock): RequestHandler {
  return async (req, res, next) => {
    const email = header ? req.get(header) : undefined;
    if (!email) return next();
    let user: UserDoc;
    try {
      user = await userForSso(email, clock());
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
