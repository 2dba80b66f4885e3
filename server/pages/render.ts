/**
 * Server-rendered pages: Eta templates from the checkout's `server/pages/views/` (tsc does not copy them to dist/),
 * escaped by default, with the security headers of every page.
 */
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { Request, Response } from 'express';
import type { UserDoc } from '../../shared/models/user.js';
import { config } from '../../shared/config.js';
import { pageTimes } from './times.js';

/** `server/pages/views/` of the checkout: from `dist/server/pages/` three levels up. */
const VIEWS = fileURLToPath(new URL('../../../server/pages/views/', import.meta.url));
const eta = new Eta({ views: VIEWS, cache: config.nodeEnv === 'production', autoEscape: true });

/** Headers of every page: only this origin's scripts and styles, no framing, no referrer. */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/** The signed-in user of this request (set by `loadUser`), or undefined. */
export function currentUser(res: Response): UserDoc | undefined {
  return res.locals.user as UserDoc | undefined;
}

/**
 * Renders `views/<view>.eta` with `data` and what every page shows: the user, the CSRF token, a pending notice,
 * `times` (server/pages/times.ts, in the user's zone) and the user's `theme`.
 *
 * @param status - HTTP status, 200 unless given.
 */
export function render(req: Request, res: Response, view: string, data: Record<string, unknown>, status = 200): void {
  const notice = req.session?.notice;
  if (notice !== undefined) delete req.session.notice;
  const csrf = req.session && req.csrfToken ? req.csrfToken() : '';
  const user = currentUser(res);
  const times = pageTimes(user?.tz, (res.locals.now as Date | undefined) ?? new Date());
  // `glance`: the user's projects with their down counts (server/pages/glance.ts), for the title, favicon and switcher.
  const glance = res.locals.glance as unknown;
  const html = eta.render(view, { siteName: config.siteName, baseUrl: config.baseUrl, user, csrf, notice, times, theme: user?.theme ?? 'system', glance, ...data });
  res.status(status).set(PAGE_HEADERS).type('html').send(html);
}
