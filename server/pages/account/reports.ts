/**
 * Email reports and reminders on the account page (docs/reports.md): the form choosing how often each comes, and the unsubscribe link of every
 * such mail (its GET shows a page with a button, since mail scanners fetch links; its POST, from that page or a mail client's one-click
 * unsubscribe (RFC 8058), turns that mail off without a session or CSRF token, the signed link being the proof).
 */
import { Router } from 'express';
import type { Clock } from '../../../shared/clock.js';
import { emailOf, parseReportSettings, saveReportSettings, turnOff } from '../../../shared/reports/settings.js';
import { unsubscribeOf } from '../../../shared/reports/links.js';
import type { ReportKind } from '../../../shared/models/report.js';
import type { WebOptions } from '../kit/options.js';
import { requireUser } from '../kit/guard.js';
import { currentUser, render } from '../kit/render.js';
import { fieldOf } from '../kit/forms.js';

/** What each kind of mail is called on the pages. */
const NAMES: Record<ReportKind, string> = { report: 'the email reports of your checks', reminder: 'the reminders while a check is down' };

/** `POST /account/reports` (the settings) and the GET page of `/account/reports/unsubscribe/<token>`. */
export function reportsRouter(options: WebOptions, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.post('/account/reports', requireUser, async (req, res) => {
    const settings = parseReportSettings(fieldOf(req, 'report'), fieldOf(req, 'reminder'));
    await saveReportSettings(currentUser(res)!, settings, clock());
    req.session.notice = `Reports: ${settings.report}. Reminders: ${settings.reminder}.`;
    res.redirect(303, '/account/#reports');
  });
  router.get('/account/reports/unsubscribe/:token', async (req, res) => {
    const { userId, kind } = unsubscribeOf(String(req.params.token), options.secretKey, clock());
    // The account must still exist (410 otherwise); its address is not shown: whoever holds a forwarded link learns none.
    await emailOf(userId);
    const text = `Stop ${NAMES[kind]}?`;
    render(req, res, 'link-confirm', { title: 'Unsubscribe', heading: 'Unsubscribe', text, action: req.originalUrl, button: 'Unsubscribe' });
  });
  return router;
}

/** The POST of `/account/reports/unsubscribe/<token>`: outside the session and CSRF middleware (RFC 8058 one-click). */
export function reportsUnsubscribeRouter(options: WebOptions, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.post('/account/reports/unsubscribe/:token', async (req, res) => {
    const { userId, kind } = unsubscribeOf(String(req.params.token), options.secretKey, clock());
    await turnOff(userId, kind);
    const text = `This address gets no more of ${NAMES[kind]}. Turn them on again on your account page.`;
    render(req, res, 'link-done', { title: 'Unsubscribed', heading: 'Unsubscribed', text });
  });
  return router;
}
