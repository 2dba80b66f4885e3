/**
 * Sign-in, sign-out, sign-up and password change (README, Web app). A wrong password and an unknown address get the
 * same answer, and sign-up answers the same whether or not the address had an account, so no page reveals which
 * addresses have one. Passwords are never logged.
 */
import { Router, type Request, type Response } from 'express';
import { AppError } from '../../shared/errors.js';
import { authenticate, changePassword, createUser } from '../../shared/services/users.js';
import { usableInvitation } from '../../shared/services/invitations.js';
import type { Clock } from '../../shared/clock.js';
import type { WebOptions } from './options.js';
import type { SignInLimiter } from './limits.js';
import { currentUser, render } from './render.js';
import { requireUser } from './guard.js';
import { fieldOf } from './forms.js';

/** A local path to go to after signing in; anything else (another origin, `//host`) becomes the project list. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) ? next : '/projects/';
}

/** Starts a new session (a new id: no fixation) for the user. */
async function signIn(req: Request, userId: string, epoch: number): Promise<void> {
  await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err as Error) : resolve())));
  req.session.userId = userId;
  req.session.epoch = epoch;
  await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err as Error) : resolve())));
}

/** Whether `/signup/` is open for this request: REGISTRATION_OPEN, or a usable invitation token in `invite`. */
async function signUpOpen(options: WebOptions, invite: string, now: Date): Promise<boolean> {
  if (options.registrationOpen) return true;
  if (invite === '') return false;
  return usableInvitation(invite, now, options.secretKey).then(
    () => true,
    () => false,
  );
}

/** Routes of the account pages. */
export function accountRouter(options: WebOptions, limiter: SignInLimiter, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const signInPage = (req: Request, res: Response, data: Record<string, unknown>, status = 200): void =>
    render(req, res, 'signin', { title: 'Sign in', registrationOpen: options.registrationOpen, email: '', error: '', ...data }, status);

  router.get('/', (_req, res) => res.redirect(303, currentUser(res) ? '/projects/' : '/signin/'));

  router.get('/signin/', (req, res) => signInPage(req, res, { next: safeNext(req.query.next) }));
  router.post('/signin/', async (req, res) => {
    const email = fieldOf(req, 'email');
    const next = safeNext(fieldOf(req, 'next'));
    if (!(await limiter(req, email))) {
      return signInPage(req, res, { email, next, error: 'Too many sign-in attempts. Wait a minute, then try again.' }, 429);
    }
    const user = await authenticate(email, fieldOf(req, 'password'));
    if (!user) return signInPage(req, res, { email, next, error: 'Wrong email address or password.' }, 400);
    await signIn(req, user._id, user.sessionEpoch ?? 0);
    res.redirect(303, next);
  });

  router.post('/signout/', async (req, res) => {
    await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    res.clearCookie('hc_session', { path: '/' });
    res.redirect(303, '/signin/');
  });

  const signUpPage = (req: Request, res: Response, data: Record<string, unknown>, status = 200): void =>
    render(req, res, 'signup', { title: 'Sign up', email: '', error: '', ...data }, status);
  router.get('/signup/', async (req, res) => {
    const invite = typeof req.query.invite === 'string' ? req.query.invite : '';
    if (!(await signUpOpen(options, invite, clock()))) throw new AppError(404, 'sign-up is closed on this site: ask a project owner for an invitation');
    signUpPage(req, res, { invite });
  });
  router.post('/signup/', async (req, res) => {
    const invite = fieldOf(req, 'invite');
    const email = fieldOf(req, 'email');
    if (!(await signUpOpen(options, invite, clock()))) throw new AppError(404, 'sign-up is closed on this site: ask a project owner for an invitation');
    try {
      await createUser(email, fieldOf(req, 'password'), clock());
    } catch (err) {
      if (err instanceof AppError && err.status === 400) return signUpPage(req, res, { invite, email, error: `${err.message}.` }, 400);
      throw err;
    }
    req.session.notice = 'If this address had no account, it has one now: sign in with it.';
    res.redirect(303, `/signin/?next=${encodeURIComponent(invite ? `/invite/${invite}` : '/projects/')}`);
  });

  router.get('/account/', requireUser, (req, res) => render(req, res, 'account', { title: 'Account', error: '' }));
  router.post('/account/password', requireUser, async (req, res) => {
    const user = currentUser(res);
    try {
      req.session.epoch = await changePassword(user?._id ?? '', fieldOf(req, 'current'), fieldOf(req, 'password'));
    } catch (err) {
      if (err instanceof AppError && err.status === 400) return render(req, res, 'account', { title: 'Account', error: `${err.message}.` }, 400);
      throw err;
    }
    req.session.notice = 'Your password has been changed.';
    res.redirect(303, '/account/');
  });
  return router;
}
