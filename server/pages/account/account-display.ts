/**
 * How the web app shows things to one person: the profile's time zone (User `tz`, on the account page, views/account-display.eta) and the colour
 * theme (User `theme`: system, light or dark; the header's switcher, views/theme-switch.eta; AppError(400) for another). Signed-out pages store nothing and follow the system.
 */
import { Router } from 'express';
import moment from 'moment-timezone';
import { User } from '../../../shared/models/user.js';
import { AppError } from '../../../shared/errors.js';
import { requireUser } from '../kit/guard.js';
import { currentUser } from '../kit/render.js';
import { fieldOf, safeNext } from '../kit/forms.js';
import { accountPage } from './account-page.js';
import type { UserSessions } from './sessions.js';

/** The themes a profile may choose (User `theme`). */
const THEMES = ['system', 'light', 'dark'] as const;
/** The tz database's zone names, as the account page's list offers them. */
const ZONES: readonly string[] = moment.tz.names();
const KNOWN = new Set(ZONES);

/** Routes of the time zone and theme settings. */
export function accountDisplayRouter(sessions: UserSessions): Router {
  const router = Router({ strict: true, caseSensitive: true });
  // Every rendering of the account page (its own and a refused form's) gets the zone list.
  router.use('/account/', (_req, res, next) => {
    res.locals.pageData = { ...(res.locals.pageData as Record<string, unknown> | undefined), zones: ZONES };
    next();
  });

  router.post('/account/display', requireUser, async (req, res) => {
    const tz = fieldOf(req, 'tz').trim();
    if (!KNOWN.has(tz)) {
      const displayError = tz ? `“${tz}” is not a time zone of the tz database: choose one from the list, such as Europe/Riga.` : 'Choose a time zone.';
      return accountPage(req, res, sessions, { displayError, displayTz: tz }, 400);
    }
    await User.updateOne({ _id: currentUser(res)!._id }, { $set: { tz } });
    req.session.notice = `Times are now shown in ${tz}.`;
    res.redirect(303, '/account/#display');
  });

  router.post('/account/theme', requireUser, async (req, res) => {
    const theme = fieldOf(req, 'theme');
    const chosen = THEMES.find((name) => name === theme);
    if (!chosen) throw new AppError(400, 'no such theme: choose system, light or dark');
    await User.updateOne({ _id: currentUser(res)!._id }, { $set: { theme: chosen } });
    res.redirect(303, safeNext(fieldOf(req, 'next')));
  });
  return router;
}
