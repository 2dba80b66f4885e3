/**
 * Second factors in the web app (docs/web-app.md, "Two-factor authentication"): the sign-in's second step, authenticator apps
 * added with a QR code and removed, recovery codes, and sudo mode: a sensitive change (second factors, API keys) made
 * more than {@link SUDO_MS} after signing in asks for the password or a factor again. Owners may require a second
 * factor of every member of a project (guard.ts sends a member without one here).
 */
import { Router, type Request, type Response } from 'express';
import { AppError } from '../../../shared/errors.js';
import { findUser, authenticate } from '../../../shared/services/users.js';
import { addTotp, hasSecondFactor, newRecoveryCodes, newTotpSecret, removeFactor, totpUri, verifySecondFactor } from '../../../shared/services/second-factor.js';
import type { UserDoc } from '../../../shared/models/user.js';
import type { Clock } from '../../../shared/clock.js';
import { config } from '../../../shared/config.js';
import { currentUser, render } from '../kit/render.js';
import { requireSudo, requireUser } from '../kit/guard.js';
import { fieldOf, safeNext } from '../kit/forms.js';
import { SUDO_MS, type UserSessions } from './sessions.js';
import type { AccountLimits } from '../kit/limits.js';
import type { WebOptions } from '../kit/options.js';
import { relyingPartyOf, takeChallenge } from './security-keys.js';
import { verifySecurityKey } from '../../../shared/services/webauthn.js';
import { linkSso } from './sso-link.js';

/** How long the second step may follow the password, milliseconds. */
const SECOND_STEP_MS = 5 * 60_000;

/**
 * After a right password (or the identity provider's answer): a new session that holds only who is signing in (not
 * signed in yet) until the second factor; with `link`, the factor also links the account to single sign-on.
 * @returns The second step's path.
 */
export async function awaitSecondFactor(req: Request, user: UserDoc, next: string, now: Date, { link = false } = {}): Promise<string> {
  await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err as Error) : resolve())));
  req.session.pending = { userId: user._id, epoch: user.sessionEpoch ?? 0, next, until: now.getTime() + SECOND_STEP_MS, ...(link ? { link } : {}) };
  return '/signin/two-factor';
}

/** Routes of the second step, sudo confirmation, authenticator apps and recovery codes. */
export function twoFactorRouter(options: WebOptions, sessions: UserSessions, limits: AccountLimits, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const sudo = requireSudo(clock);

  const rp = relyingPartyOf(options);
  const stepPage = async (req: Request, res: Response, error = '', status = 200) => {
    const user = req.session.pending ? await findUser(req.session.pending.userId) : null;
    render(req, res, 'two-factor', { title: 'Second factor', keys: (user?.webauthn.length ?? 0) > 0, apps: (user?.totp.length ?? 0) > 0, error }, status);
  };
  const pendingOf = (req: Request) => {
    const pending = req.session.pending;
    return pending && pending.until > clock().getTime() ? pending : null;
  };
  router.get('/signin/two-factor', async (req, res) => (pendingOf(req) ? stepPage(req, res) : res.redirect(303, '/signin/')));
  router.post('/signin/two-factor', async (req, res) => {
    const pending = pendingOf(req);
    if (!pending) return res.redirect(303, '/signin/');
    if (!(await limits.secondFactor(req, pending.userId))) return stepPage(req, res, 'Too many attempts. Wait a minute, then try again.', 429);
    const user = await findUser(pending.userId);
    if (!user || (user.sessionEpoch ?? 0) !== pending.epoch) return res.redirect(303, '/signin/');
    const answer = fieldOf(req, 'answer');
    const ok = answer !== '' ? await verifySecurityKey(user._id, answer, takeChallenge(req), rp) : await verifySecondFactor(user._id, fieldOf(req, 'code'));
    if (!ok) return stepPage(req, res, answer !== '' ? 'That security key was not accepted.' : 'That code is not right, or has been used already.', 400);
    if (pending.link) await linkSso(user._id);
    await sessions.signIn(req, user, clock());
    req.session.factorAt = clock().getTime();
    res.redirect(303, safeNext(pending.next));
  });

  const confirmPage = (req: Request, res: Response, error = '', status = 200) =>
    render(req, res, 'confirm', { title: 'Confirm it is you', next: safeNext(fieldOf(req, 'next') || req.query.next), factor: hasSecondFactor(currentUser(res)!), error }, status);
  router.get('/account/confirm', requireUser, (req, res) => confirmPage(req, res));
  router.post('/account/confirm', requireUser, async (req, res) => {
    const user = currentUser(res)!;
    if (!(await limits.secondFactor(req, user._id))) return confirmPage(req, res, 'Too many attempts. Wait a minute, then try again.', 429);
    const password = fieldOf(req, 'password');
    const ok = password !== '' ? Boolean(await authenticate(user.email, password)) : await verifySecondFactor(user._id, fieldOf(req, 'code'));
    if (!ok) return confirmPage(req, res, 'That is not right.', 400);
    req.session.sudoUntil = clock().getTime() + SUDO_MS;
    if (password === '') req.session.factorAt = clock().getTime();
    res.redirect(303, safeNext(fieldOf(req, 'next')));
  });

  const addPage = async (req: Request, res: Response, error = '', status = 200) => {
    const user = currentUser(res)!;
    const secret = (req.session.totpSecret ??= await newTotpSecret());
    // qrcode is loaded here, on the only page that draws one.
    const { default: QRCode } = await import('qrcode');
    const qr = await QRCode.toString(await totpUri(user.email, secret, config.siteName), { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    render(req, res, 'totp-add', { title: 'Add an authenticator app', secret, qr, name: fieldOf(req, 'name') || 'Authenticator app', error }, status);
  };
  router.get('/account/two-factor/totp', requireUser, sudo, (req, res) => addPage(req, res));
  router.post('/account/two-factor/totp', requireUser, sudo, async (req, res) => {
    const user = currentUser(res)!;
    const secret = req.session.totpSecret;
    if (!secret) return res.redirect(303, '/account/two-factor/totp');
    let codes: string[];
    try {
      codes = await addTotp(user._id, { name: fieldOf(req, 'name'), secret, code: fieldOf(req, 'code') }, clock());
    } catch (err) {
      if (err instanceof AppError && err.status === 400) return addPage(req, res, `${err.message}.`, 400);
      throw err;
    }
    delete req.session.totpSecret;
    if (codes.length > 0) return render(req, res, 'recovery-codes', { title: 'Recovery codes', codes });
    req.session.notice = 'Authenticator app added.';
    res.redirect(303, '/account/');
  });
  router.post('/account/two-factor/factors/:factorId/remove', requireUser, sudo, async (req, res) => {
    await removeFactor(currentUser(res)!._id, String(req.params.factorId));
    req.session.notice = 'Second factor removed.';
    res.redirect(303, '/account/');
  });
  router.post('/account/two-factor/recovery-codes', requireUser, sudo, async (req, res) => {
    const user = currentUser(res)!;
    if (!hasSecondFactor(user)) throw new AppError(400, 'add an authenticator app first: recovery codes stand in for it');
    render(req, res, 'recovery-codes', { title: 'Recovery codes', codes: await newRecoveryCodes(user._id) });
  });
  return router;
}
