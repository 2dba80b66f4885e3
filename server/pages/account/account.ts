/**
 * Sign-in, sign-out, sign-up and password change (docs/web-app.md). A wrong password and an unknown address get the
 * same answer, and sign-up answers the same whether or not the address had an account, so no page reveals which
 * addresses have one. Passwords are never logged.
 */
import { Router, type Request, type Response } from 'express';
import { AppError } from '../../../shared/errors.js';
import { authenticate, changePassword, createUser, normaliseEmail } from '../../../shared/services/users.js';
import { acceptInvitation, usableInvitation } from '../../../shared/services/invitations.js';
import type { InvitationDoc } from '../../../shared/models/invitation.js';
import type { UserDoc } from '../../../shared/models/user.js';
import type { Clock } from '../../../shared/clock.js';
import type { WebOptions } from '../kit/options.js';
import type { AccountLimits } from '../kit/limits.js';
import { currentUser, render } from '../kit/render.js';
import { requireUser } from '../kit/guard.js';
import { fieldOf, safeNext } from '../kit/forms.js';
import { accountPage } from './account-page.js';
import { awaitSecondFactor } from './two-factor.js';
import { hasSecondFactor } from '../../../shared/services/second-factor.js';
import type { UserSessions } from './sessions.js';
import type { SignInView, SignUpView } from './views.js';

/**
 * Whether `/signup/` is open for this request, and through which invitation: a usable invitation token in `invite`
 * (only its address may sign up), else REGISTRATION_OPEN; never while password sign-in is off.
 * @throws AppError(404) when sign-up is closed to this request.
 */
async function signUpInvitation(options: WebOptions, invite: string, now: Date): Promise<InvitationDoc | null> {
  if (!options.sso.passwordSignIn) throw new AppError(404, 'sign-up is closed on this site: sign in with single sign-on');
  const invitation = invite === '' ? null : await usableInvitation(invite, now, options.secretKey).catch(() => null);
  if (invitation || options.registrationOpen) return invitation;
  throw new AppError(404, 'sign-up is closed on this site: ask a project owner for an invitation');
}

/** The answer to a form sent too often. */
const TOO_MANY = 'Too many attempts. Wait a few minutes, then try again.';

/** Routes of the account pages. */
export function accountRouter(options: WebOptions, limiter: AccountLimits, sessions: UserSessions, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const signInPage = (req: Request, res: Response, data: Partial<Pick<SignInView, 'email' | 'next' | 'error'>>, status = 200): void =>
    render(req, res, 'signin', { title: 'Sign in', registrationOpen: options.registrationOpen, sso: options.sso, email: '', error: '', ...data }, status);

  router.get('/', (_req, res) => res.redirect(303, currentUser(res) ? '/projects/' : '/signin/'));

  router.get('/signin/', (req, res) => signInPage(req, res, { next: safeNext(req.query.next) }));
  router.post('/signin/', async (req, res) => {
    const email = fieldOf(req, 'email');
    const next = safeNext(fieldOf(req, 'next'));
    if (!options.sso.passwordSignIn) throw new AppError(403, 'password sign-in is turned off on this site: use single sign-on');
    if (!(await limiter.signIn(req, email))) {
      return signInPage(req, res, { email, next, error: 'Too many sign-in attempts. Wait a minute, then try again: a sign-in link by email still works.' }, 429);
    }
    const user = await authenticate(email, fieldOf(req, 'password'));
    if (!user) return signInPage(req, res, { email, next, error: 'Wrong email address or password.' }, 400);
    if (hasSecondFactor(user)) return res.redirect(303, await awaitSecondFactor(req, user, next, clock()));
    await sessions.signIn(req, user, clock());
    res.redirect(303, next);
  });

  router.post('/signout/', async (req, res) => {
    await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    res.clearCookie('hc_session', { path: '/' });
    res.redirect(303, '/signin/');
  });

  const signUpPage = (req: Request, res: Response, data: Partial<Pick<SignUpView, 'invite' | 'email' | 'invited' | 'error'>>, status = 200): void =>
    render(req, res, 'signup', { title: 'Sign up', email: '', error: '', invited: false, ...data }, status);
  router.get('/signup/', async (req, res) => {
    const invite = typeof req.query.invite === 'string' ? req.query.invite : '';
    const invitation = await signUpInvitation(options, invite, clock());
    signUpPage(req, res, { invite: invitation ? invite : '', email: invitation?.email ?? '', invited: Boolean(invitation) });
  });
  router.post('/signup/', async (req, res) => {
    const email = fieldOf(req, 'email');
    const invitation = await signUpInvitation(options, fieldOf(req, 'invite'), clock());
    const invite = invitation ? fieldOf(req, 'invite') : '';
    const page = { invite, email, invited: Boolean(invitation) };
    if (!(await limiter.signUp(req, email))) return signUpPage(req, res, { ...page, error: TOO_MANY }, 429);
    let user: UserDoc | null;
    try {
      // The link was mailed to the invited address: holding it proves that address, and no other.
      if (invitation && normaliseEmail(email) !== invitation.email) throw new AppError(400, 'this invitation is for another email address');
      user = await createUser(email, fieldOf(req, 'password'), clock());
    } catch (err) {
      if (err instanceof AppError && err.status === 400) return signUpPage(req, res, { ...page, error: `${err.message}.` }, 400);
      throw err;
    }
    if (user && invitation) await acceptInvitation(invite, user, clock(), options.secretKey).catch(() => undefined);
    req.session.notice = 'If this address had no account, it has one now: sign in with it.';
    res.redirect(303, `/signin/?next=${encodeURIComponent(invite ? `/invite/${invite}` : '/projects/')}`);
  });

  router.post('/account/password', requireUser, async (req, res) => {
    const user = currentUser(res);
    // A stolen session must not guess the current password without bound.
    if (!(await limiter.secondFactor(req, user?._id ?? ''))) return accountPage(req, res, sessions, { error: TOO_MANY }, 429);
    try {
      req.session.epoch = await changePassword(user?._id ?? '', fieldOf(req, 'current'), fieldOf(req, 'password'));
    } catch (err) {
      if (err instanceof AppError && err.status === 400) return accountPage(req, res, sessions, { error: `${err.message}.` }, 400);
      throw err;
    }
    req.session.notice = 'Your password has been changed.';
    res.redirect(303, '/account/');
  });
  return router;
}
