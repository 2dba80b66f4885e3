/**
 * Changing an account's address (docs/web-app.md; docs/security.md: the address is a credential): asked on the account
 * page with the password and, for an account with a second factor, a code from it (or a factor proved within sudo
 * mode's minutes), confirmed by a link mailed to the new address; until then the old address stays. An address that
 * has an account gets a notice instead of a link, and the page answers the same either way, so nobody learns which
 * addresses have one. The change signs out every other session, and the old address is mailed a link that undoes it
 * for 7 days.
 */
import { Router, type Request, type Response } from 'express';
import { logger } from '../../../shared/logger.js';
import { config } from '../../../shared/config.js';
import { authenticate, changeEmail, normaliseEmail, userByEmail } from '../../../shared/services/users.js';
import { issueLink, undoEmailChange, usableLink, useLink } from '../../../shared/services/account-links.js';
import { hasSecondFactor, verifySecondFactor } from '../../../shared/services/second-factor.js';
import { SUDO_MS } from './sessions.js';
import type { UserDoc } from '../../../shared/models/user.js';
import { AppError } from '../../../shared/errors.js';
import type { Clock } from '../../../shared/clock.js';
import type { WebOptions } from '../kit/options.js';
import type { AccountLimits } from '../kit/limits.js';
import { currentUser, render } from '../kit/render.js';
import { requireUser } from '../kit/guard.js';
import { fieldOf } from '../kit/forms.js';
import { accountPage } from './account-page.js';
import type { UserSessions } from './sessions.js';
import { sendServiceMail } from '../../../shared/mail.js';

const log = logger.child({ module: 'email-change' });

/** Mails the new address its link, or a notice when it has an account already. Runs after the answer was sent. */
async function mailConfirmation(user: UserDoc, address: string, options: WebOptions, now: Date): Promise<void> {
  const site = config.siteName;
  if (await userByEmail(address)) {
    const paragraphs = [`Someone asked to move an account on ${site} to this address, but this address has an account already, so nothing changed.`, 'If it was you, sign in with this address instead.'];
    return sendServiceMail(options, { to: address, subject: `Address change refused · ${site}`, paragraphs });
  }
  const token = await issueLink('email', user, now, options.secretKey, address);
  const paragraphs = [`Someone, hopefully you, asked to use this address for their account on ${site}. The link works once, for 24 hours.`, 'If it was not you, ignore this mail: nothing changes.'];
  await sendServiceMail(options, { to: address, subject: `Confirm your new address · ${site}`, paragraphs, link: { href: `${options.baseUrl}/account/email/${token}`, label: 'Confirm this address' } });
}

/** Mails the old address that the change was made, with the link that undoes it (7 days). Runs after the answer was sent. */
async function mailUndo(user: UserDoc, newEmail: string, epoch: number, options: WebOptions, now: Date): Promise<void> {
  const token = await issueLink('undo', { _id: user._id, email: newEmail, sessionEpoch: epoch }, now, options.secretKey, user.email);
  const paragraphs = [
    `The address of your account on ${config.siteName} is now ${newEmail}; mail for the account goes there, and its other sessions were signed out.`,
    'If you did not make this change, the link below gives the account this address back and signs everyone out. It works once, for 7 days.',
  ];
  await sendServiceMail(options, { to: user.email, subject: `Your address was changed · ${config.siteName}`, paragraphs, link: { href: `${options.baseUrl}/account/email/undo/${token}`, label: 'Undo this change' } });
}

/** Routes of `/account/email`, its confirmation links and the undo link mailed to the old address. */
export function emailChangeRouter(options: WebOptions, limits: AccountLimits, sessions: UserSessions, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const refuse = (req: Request, res: Response, error: string, status: number) => accountPage(req, res, sessions, { emailError: error, newEmail: fieldOf(req, 'email') }, status);

  router.post('/account/email', requireUser, async (req, res) => {
    const user = currentUser(res) as UserDoc;
    let address: string;
    try {
      address = normaliseEmail(fieldOf(req, 'email'));
    } catch {
      return refuse(req, res, 'Enter a valid email address.', 400);
    }
    if (!(await limits.confirm(req, address))) return refuse(req, res, 'Too many confirmations asked for this address or from here. Wait an hour, then try again.', 429);
    if (!(await authenticate(user.email, fieldOf(req, 'password')))) return refuse(req, res, 'The current password is wrong.', 400);
    // The address is a credential: with a second factor, this change needs it too, recent or typed here.
    const factorRecent = (req.session.factorAt ?? 0) > clock().getTime() - SUDO_MS;
    if (hasSecondFactor(user) && !factorRecent && !(await verifySecondFactor(user._id, fieldOf(req, 'code')))) {
      return refuse(req, res, 'Confirm with your second factor: type a code from your authenticator app (or a recovery code).', 400);
    }
    if (address === user.email) return refuse(req, res, 'This is your address already.', 400);
    mailConfirmation(user, address, options, clock()).catch((err: unknown) => log.warn({ err: String(err) }, 'cannot mail an address confirmation'));
    req.session.notice = `We emailed a link to ${address}: open it to make it your address. Until then your address stays ${user.email}.`;
    res.redirect(303, '/account/');
  });

  router.get('/account/email/:token', async (req, res) => {
    const { link, user } = await usableLink('email', String(req.params.token), clock(), options.secretKey);
    const text = `Change the address of your account from ${user.email} to ${link.newEmail}?`;
    render(req, res, 'link-confirm', { title: 'Confirm your new address', heading: 'Confirm your new address', text, action: `/account/email/${String(req.params.token)}`, button: 'Use this address' });
  });
  router.post('/account/email/:token', async (req, res) => {
    const { link, user } = await useLink('email', String(req.params.token), clock(), options.secretKey);
    const epoch = await changeEmail(user, link.newEmail);
    if (epoch === null) throw new AppError(409, 'this address cannot be used: it belongs to an account now');
    const mine = currentUser(res)?._id === user._id;
    // Every other session is signed out by the new epoch; this one keeps going when it is the account's.
    if (mine) req.session.epoch = epoch;
    mailUndo(user, link.newEmail, epoch, options, clock()).catch((err: unknown) => log.warn({ err: String(err) }, 'cannot tell the old address'));
    req.session.notice = `Your address is now ${link.newEmail}; your other sessions are signed out.`;
    res.redirect(303, mine ? '/account/' : '/signin/');
  });

  router.get('/account/email/undo/:token', (req, res) => {
    const text = 'Give your account its old address back? Every session of the account is signed out.';
    render(req, res, 'link-confirm', { title: 'Undo the address change', heading: 'Undo the address change', text, action: req.originalUrl, button: 'Undo the change' });
  });
  router.post('/account/email/undo/:token', async (req, res) => {
    const { email } = await undoEmailChange(String(req.params.token), clock(), options.secretKey);
    const text = `The account’s address is ${email} again and every session is signed out. If the password was changed as well, set a new one with “Forgot your password?” on the sign-in page.`;
    render(req, res, 'link-done', { title: 'Address change undone', heading: 'Address change undone', text });
  });
  return router;
}
