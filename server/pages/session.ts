/**
 * Sessions of the web app: express-session with its data in Redis (connect-redis), so any web process serves any
 * request. The cookie is signed with SECRET_KEY, HttpOnly, SameSite=Lax, and Secure when BASE_URL is https.
 */
import session from 'express-session';
import RedisStore from 'connect-redis';
import type { Redis } from 'ioredis';
import type { Request, RequestHandler } from 'express';
import type { WebOptions } from './options.js';

declare module 'express-session' {
  interface SessionData {
    /** The signed-in user's id. */
    userId?: string;
    /** The user's session epoch at sign-in; a password change raises the user's, signing this session out. */
    epoch?: number;
    /** One message for the next page shown (after a redirect). */
    notice?: string;
  }
}

/** Name of the session cookie. */
export const SESSION_COOKIE = 'hc_session';
/** How long a session lasts without a request, milliseconds: 14 days, renewed by each request. */
const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;

/** The session middleware of the pages. */
export function sessionMiddleware(redis: Redis, options: WebOptions): RequestHandler {
  return session({
    name: SESSION_COOKIE,
    secret: options.secretKey,
    store: new RedisStore({ client: redis, prefix: `${options.keyPrefix}:sess:`, ttl: SESSION_TTL_MS / 1000 }),
    resave: false,
    saveUninitialized: false,
    rolling: true,
    proxy: options.trustProxy > 0,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: options.baseUrl.startsWith('https:'),
      maxAge: SESSION_TTL_MS,
      path: '/',
    },
  });
}

/**
 * Signs the user in on a new session (a new id: no fixation), under the user's session epoch `epoch`.
 * @throws the session store's (Redis) error.
 */
export async function startSession(req: Request, userId: string, epoch: number): Promise<void> {
  await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err as Error) : resolve())));
  req.session.userId = userId;
  req.session.epoch = epoch;
  await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err as Error) : resolve())));
}
