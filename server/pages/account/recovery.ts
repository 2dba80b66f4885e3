/**
 * Password reset and sign-in by a mailed link (docs/web-app.md). Asking for a link answers the same page whether or
 * not the address has an account, and the lookup, the link and the mail happen after the answer, so neither the
 * answer nor its timing tells. A link's page shows a form; only its POST uses the link (a mail scanner fetching the
 * link uses nothing).
 */
import { Router, type Request, type Response } from 'express';
import { AppError } from '../../../shared/errors.js';
import { logger } from '../../../shared/logger.js';
import { config } from '../../../shared/config.js';
import { assertPassword, normaliseEmail, resetPassword, userByEmail } from '../../../shared/services/users.js';
import { issueLink, usableLink, useLink } from '../../../shared/services/account-links.js';
import type { Clock } from '../../../shared/clock.js';
import type { WebOptions } from '../kit/options.js';
import type { AccountLimits, AttemptLimit } from '../kit/limits.js';
import { render } from '../kit/render.js';
import { fieldOf } from '../kit/forms.js';
import type { UserSessions } from './sessions.js';
import { awaitSecondFactor } from './two-factor.js';
import { hasSecondFactor } from '../../../shared/services/second-factor.js';
import type { UserDoc } from '../../../shared/models/user.js';
import { sendServiceMail } from '../../../shared/mail.js';
import type { MailRequestView } from './views.js';

const log = logger.child({ module: 'recovery' });

/** The two kinds of request: their path under `/signin/`, page words, and mail. */
const KINDS = {
  reset: {
    purpose: 'reset',
    title: 'Reset your password',
    intro: 'Enter the address of your account: we email it a link to set a new password.',
    button: 'Email me a reset link',
    subject: 'Reset your password',
    paragraphs: ['Someone, hopefully you, asked to reset the password of your account. The link works once, for 1 hour.', 'If it was not you, ignore this mail: your password stays as it is.'],
    label: 'Set a new password',
  },
  link: {
    purpose: 'signin',
    title: 'Sign in by email',
    intro: 'Enter the address of your account: we email it a link that signs you in, no password needed.',
    button: 'Email me a sign-in link',
    subject: 'Your sign-in link',
    paragraphs: ['Someone, hopefully you, asked for a link to sign in to your account. It works once, for 15 minutes.', 'If it was not you, ignore this mail.'],
    label: 'Sign in',
  },
} as const;
type Kind = keyof typeof KINDS;

/** Mails a link to the address's account, if it has one; nothing otherwise. Runs after the answer was sent. */
async function mailLink(kind: Kind, email: string, options: WebOptions, now: Date): Promise<void> {
  const user = await userByEmail(email);
  if (!user) return;
  const words = KINDS[kind];
  const token = await issueLink(words.purpose, user, now, options.secretKey);
  const href = `${options.baseUrl}/signin/${kind}/${token}`;
  await sendServiceMail(options, { to: user.email, subject: `${words.subject} · ${config.siteName}`, paragraphs: [...words.paragraphs], link: { href, label: words.label } });
}

/** Routes of `/signin/reset/…` and `/signin/link/…`. */
export function recoveryRouter(options: WebOptions, limits: AccountLimits, sessions: UserSessions, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  // A mailed link proves the mailbox only: a user with a second factor is asked for it, as after a password.
  const signIn = async (req: Request, res: Response, user: UserDoc, notice?: string): Promise<void> => {
    let to = '/projects/';
    if (hasSecondFactor(user)) to = await awaitSecondFactor(req, user, to, clock());
    else await sessions.signIn(req, user, clock());
    // Set on the new session (both calls start one).
    if (notice) req.session.notice = notice;
    res.redirect(303, to);
  };
  const requestPage = (req: Request, res: Response, kind: Kind, data: Partial<Pick<MailRequestView, 'email' | 'error' | 'sent'>> = {}, status = 200): void =>
    render(req, res, 'mail-request', { ...KINDS[kind], kind, email: '', error: '', sent: false, ...data }, status);

  const askFor = (kind: Kind, limit: AttemptLimit) => async (req: Request, res: Response) => {
    const email = fieldOf(req, 'email');
    let address: string;
    try {
      address = normaliseEmail(email);
    } catch {
      return requestPage(req, res, kind, { email, error: 'Enter a valid email address.' }, 400);
    }
    if (!(await limit(req, address))) return requestPage(req, res, kind, { email, error: 'Too many links asked for this address or from here. Wait an hour, then try again.' }, 429);
    mailLink(kind, address, options, clock()).catch((err: unknown) => log.warn({ err: String(err), kind }, 'cannot mail a link'));
    requestPage(req, res, kind, { email: address, sent: true });
  };
  // With single sign-on only (PASSWORD_SIGNIN=false), neither passwords nor mailed links sign anyone in.
  router.use(['/signin/reset/', '/signin/link/'], (_req, _res, next) => next(options.sso.passwordSignIn ? undefined : new AppError(404, 'this site signs in with single sign-on only')));
  router.get('/signin/reset/', (req, res) => requestPage(req, res, 'reset'));
  router.post('/signin/reset/', askFor('reset', limits.reset));
  router.get('/signin/link/', (req, res) => requestPage(req, res, 'link'));
  router.post('/signin/link/', askFor('link', limits.link));

  const resetPage = (req: Request, res: Response, token: string, email: string, error = '', status = 200): void =>
    render(req, res, 'reset', { title: 'Set a new password', token, email, error }, status);
  router.get('/signin/reset/:token', async (req, res) => {
    const { user } = await usableLink('reset', String(req.params.token), clock(), options.secretKey);
    resetPage(req, res, String(req.params.token), user.email);
  });
  router.post('/signin/reset/:token', async (req, res) => {
    const token = String(req.params.token);
    const { user } = await usableLink('reset', token, clock(), options.secretKey);
    const password = fieldOf(req, 'password');
    try {
      assertPassword(password);
    } catch (err) {
      if (err instanceof AppError) return resetPage(req, res, token, user.email, `${err.message}.`, 400);
      throw err;
    }
    await useLink('reset', token, clock(), options.secretKey);
    const epoch = await resetPassword(user, password);
    await signIn(req, res, { ...user, sessionEpoch: epoch }, 'Your password has been changed, and your other sessions signed out.');
  });

  router.get('/signin/link/:token', async (req, res) => {
    const { user } = await usableLink('signin', String(req.params.token), clock(), options.secretKey);
    const action = `/signin/link/${String(req.params.token)}`;
    render(req, res, 'link-confirm', { title: 'Sign in', heading: 'Sign in', text: `Sign in as ${user.email}?`, action, button: 'Sign in' });
  });
  router.post('/signin/link/:token', async (req, res) => {
    const { user } = await useLink('signin', String(req.params.token), clock(), options.secretKey);
    await signIn(req, res, user);
  });
  return router;
}
