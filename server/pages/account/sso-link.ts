/**
 * Linking single sign-on to an account that exists already (docs/web-app.md, Single sign-on; docs/security.md): the
 * first OpenID Connect sign-in into an account made otherwise links it only after that account's own proof, its
 * second factor (the usual second step, server/pages/account/two-factor.ts) or, when it has none, its password once, typed
 * here. Nothing of the account is removed; a refused proof links nothing.
 */
import { Router, type Request, type Response } from 'express';
import { User, type UserDoc } from '../../../shared/models/user.js';
import { authenticate, findUser } from '../../../shared/services/users.js';
import type { Clock } from '../../../shared/clock.js';
import { render } from '../kit/render.js';
import { fieldOf, safeNext } from '../kit/forms.js';
import type { AccountLimits } from '../kit/limits.js';
import type { UserSessions } from './sessions.js';

/** How long the password step may follow the provider's answer, milliseconds. */
const LINK_STEP_MS = 5 * 60_000;

declare module 'express-session' {
  interface SessionData {
    /** Between the provider's answer for an unlinked account without a second factor and its password: who, their epoch, where to go, until when (ms). */
    ssoLink?: { userId: string; epoch: number; next: string; until: number };
  }
}

/** Marks the account as the address owner's for single sign-on (its later sign-ins through the provider need no password). */
export async function linkSso(userId: string): Promise<void> {
  await User.updateOne({ _id: userId }, { $set: { ssoLinked: true } });
}

/**
 * Starts the password step for `user` in a new session (not signed in).
 * @returns The step's path.
 */
export async function awaitLinkPassword(req: Request, user: UserDoc, next: string, now: Date): Promise<string> {
  await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err as Error) : resolve())));
  req.session.ssoLink = { userId: user._id, epoch: user.sessionEpoch ?? 0, next, until: now.getTime() + LINK_STEP_MS };
  return '/signin/oidc/link';
}

/** Routes of `/signin/oidc/link`: the page asking the account's password, and its POST. */
export function ssoLinkRouter(sessions: UserSessions, limits: AccountLimits, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const pending = async (req: Request): Promise<UserDoc | null> => {
    const step = req.session.ssoLink;
    const user = step && step.until > clock().getTime() ? await findUser(step.userId) : null;
    return user && (user.sessionEpoch ?? 0) === step?.epoch ? user : null;
  };
  const page = (req: Request, res: Response, user: UserDoc, error = '', status = 200) => render(req, res, 'sso-link', { title: 'Link single sign-on', email: user.email, error }, status);

  router.get('/signin/oidc/link', async (req, res) => {
    const user = await pending(req);
    if (!user) return res.redirect(303, '/signin/');
    page(req, res, user);
  });
  router.post('/signin/oidc/link', async (req, res) => {
    const user = await pending(req);
    if (!user) return res.redirect(303, '/signin/');
    if (!(await limits.secondFactor(req, user._id))) return page(req, res, user, 'Too many attempts. Wait a minute, then try again.', 429);
    if (!(await authenticate(user.email, fieldOf(req, 'password')))) return page(req, res, user, 'That is not the password of this account.', 400);
    const next = safeNext(req.session.ssoLink?.next);
    delete req.session.ssoLink;
    await linkSso(user._id);
    await sessions.signIn(req, user, clock());
    res.redirect(303, next);
  });
  return router;
}
