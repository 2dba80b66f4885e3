/**
 * Security keys and passkeys in the web app (docs/web-app.md, "Security keys and passkeys"): added from the account page (sudo
 * mode) and used at the sign-in's second step. The browser side is server/pages/account/static/webauthn.js with
 * \@simplewebauthn/browser served from this install (`/static/vendor/simplewebauthn/`); it asks for options as JSON
 * (CSRF token in a header) and posts the authenticator's answer in the page's form. Each challenge lives in the session
 * and is used once.
 */
import { Router, type Request, type Response } from 'express';
import { AppError } from '../../../shared/errors.js';
import { findUser } from '../../../shared/services/users.js';
import { addSecurityKey, authenticationOptions, registrationOptions, type RelyingParty } from '../../../shared/services/webauthn.js';
import type { Clock } from '../../../shared/clock.js';
import { config } from '../../../shared/config.js';
import { currentUser, render } from '../kit/render.js';
import { requireSudo, requireUser } from '../kit/guard.js';
import { fieldOf } from '../kit/forms.js';
import type { WebOptions } from '../kit/options.js';

/** The relying party of these pages: the site and origin of BASE_URL. */
export function relyingPartyOf(options: WebOptions): RelyingParty {
  return { name: config.siteName, origin: new URL(options.baseUrl).origin };
}

/** The challenge kept for this request's ceremony, removed from the session (used once); `''` when none. */
export function takeChallenge(req: Request): string {
  const challenge = req.session.webauthnChallenge ?? '';
  delete req.session.webauthnChallenge;
  return challenge;
}

/** Routes of adding a security key, and of the options of the sign-in's second step. */
export function securityKeysRouter(options: WebOptions, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const rp = relyingPartyOf(options);
  const sudo = requireSudo(clock);

  const addPage = (req: Request, res: Response, error = '', status = 200) =>
    render(req, res, 'webauthn-add', { title: 'Add a security key', name: fieldOf(req, 'name') || 'Security key', error }, status);
  router.get('/account/two-factor/webauthn', requireUser, sudo, (req, res) => addPage(req, res));
  const sudoForScript = requireSudo(clock, () => '/account/two-factor/webauthn', 'confirm your password again to add a security key');
  router.post('/account/two-factor/webauthn/options', requireUser, sudoForScript, async (req, res) => {
    const created = await registrationOptions(currentUser(res)!, rp);
    req.session.webauthnChallenge = created.challenge;
    res.json(created);
  });
  router.post('/account/two-factor/webauthn', requireUser, sudo, async (req, res) => {
    let codes: string[];
    try {
      codes = await addSecurityKey(currentUser(res)!, { name: fieldOf(req, 'name'), answer: fieldOf(req, 'answer'), challenge: takeChallenge(req) }, rp, clock());
    } catch (err) {
      if (err instanceof AppError && err.status === 400) return addPage(req, res, `${err.message}.`, 400);
      throw err;
    }
    if (codes.length > 0) return render(req, res, 'recovery-codes', { title: 'Recovery codes', codes });
    req.session.notice = 'Security key added.';
    res.redirect(303, '/account/');
  });

  router.post('/signin/two-factor/webauthn', async (req, res) => {
    const pending = req.session.pending;
    const user = pending && pending.until > clock().getTime() ? await findUser(pending.userId) : null;
    if (!user || user.webauthn.length === 0) throw new AppError(400, 'sign in with your password first');
    const asked = await authenticationOptions(user, rp);
    req.session.webauthnChallenge = asked.challenge;
    res.json(asked);
  });
  return router;
}
