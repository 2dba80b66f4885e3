/**
 * Sessions of the web app: express-session with its data in Redis (connect-redis), so any web process serves any
 * request. The cookie is signed with SECRET_KEY, HttpOnly, SameSite=Lax, and Secure when BASE_URL is https.
 */
import session from 'express-session';
import RedisStore from 'connect-redis';
import type { Redis } from 'ioredis';
import type { RequestHandler } from 'express';
import type { WebOptions } from './options.js';

declare module 'express-session' {
  interface SessionData {
    /** The signed-in user's id. */
    userId?: string;
    /** The user's session epoch at sign-in; a password change raises the user's, signing this session out. */
    epoch?: number;
    /** One message for the next page shown (after a redirect). */
    notice?: string;
    /** The User-Agent and client address at sign-in (server/pages/account/sessions.ts). */
    device?: string;
    ip?: string;
    /** Sign-in and last request times, milliseconds since the epoch. */
    since?: number;
    seen?: number;
    /** Until when (ms since the epoch) sensitive changes need no new confirmation (sudo mode, server/pages/account/two-factor.ts). */
    sudoUntil?: number;
    /** Between a right password and the second factor: who, their epoch, where to go, until when (ms), whether it links single sign-on. */
    pending?: { userId: string; epoch: number; next: string; until: number; link?: boolean };
    /** When (ms since the epoch) this session last proved a second factor (the sign-in's second step, a confirmation with a code). */
    factorAt?: number;
    /** The TOTP secret of an authenticator app being added, until its first code is typed. */
    totpSecret?: string;
    /** The challenge of the WebAuthn ceremony under way (server/pages/account/security-keys.ts), used once. */
    webauthnChallenge?: string;
    /** An OpenID Connect sign-in at the provider (server/pages/account/sso.ts): PKCE verifier, state, nonce, where to go, until when (ms). */
    oidc?: { verifier: string; state: string; nonce: string; next: string; until: number };
  }
}

/** Name of the session cookie. */
export const SESSION_COOKIE = 'hc_session';
/** How long a session lasts without a request, milliseconds: 14 days, renewed by each request. */
export const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;

/** The session middleware of the pages. */
export function sessionMiddleware(redis: Redis, options: WebOptions): RequestHandler {
  return session({
    name: SESSION_COOKIE,
    secret: options.secretKey,
    store: new RedisStore({ client: redis, prefix: `${options.keyPrefix}:sess:`, ttl: SESSION_TTL_MS / 1000 }),
    resave: false,
    saveUninitialized: false,
    rolling: true,
    // Unset: express-session asks `req.secure`, which believes X-Forwarded-Proto only from a trusted proxy (server/app.ts).
    proxy: undefined,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: options.baseUrl.startsWith('https:'),
      maxAge: SESSION_TTL_MS,
      path: '/',
    },
  });
}
