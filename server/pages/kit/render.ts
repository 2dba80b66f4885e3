/**
 * Server-rendered pages: Eta templates from the areas' `views/` folders of the checkout (server/pages/kit/folders.ts),
 * named by file name alone, escaped by default, with the security headers of every page.
 */
import { Eta } from 'eta';
import type { Request, Response } from 'express';
import type { UserDoc } from '../../../shared/models/user.js';
import { config } from '../../../shared/config.js';
import { pageTimes, type PageTimes } from './times.js';
import { zoneOfRequest } from './zone.js';
import { PAGES_SOURCE, viewFiles } from './folders.js';
import type { PageViews } from './views.js';
import { checkName } from './check-name.js';

const VIEW_FILES = viewFiles();
const eta = new Eta({ views: PAGES_SOURCE, cache: config.nodeEnv === 'production', autoEscape: true });
// A template is found by its name in whichever area holds it: `include('./layout')` from checks/views/ is kit's layout.
eta.resolvePath = (template: string): string => {
  const name = template.replace(/^\.\//, '').replace(/\.eta$/, '');
  const file = VIEW_FILES.get(name);
  if (file === undefined) throw new Error(`no template named ${name}`);
  return file;
};

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
 * Renders `views/<view>.eta` with `data` (its type in {@link PageViews}) and what every page shows: the user, the CSRF token, a pending notice,
 * `times` (server/pages/kit/times.ts, in the user's zone or the one `?tz=` chose: server/pages/kit/zone.ts) with `zoneSwitch`,
 * the user's `theme`, `here` (the path of a GET, where the theme switcher comes back to), `wall` for a wall display
 * (server/pages/kit/wall-grant.ts), `checkName` (how a check is named: server/pages/kit/check-name.ts), and
 * `res.locals.pageData` (what a route before the page's added). The error page also gets the project and role of a
 * project's path, so it keeps the project's navigation.
 *
 * @param status - HTTP status, 200 unless given.
 */
export function render<V extends keyof PageViews>(req: Request, res: Response, view: V, data: PageViews[V], status = 200): void {
  const notice = req.session?.notice;
  if (notice !== undefined) delete req.session.notice;
  const csrf = req.session && req.csrfToken ? req.csrfToken() : '';
  const user = currentUser(res);
  const { zone, switcher } = zoneOfRequest(req, res, user?.tz);
  const times = pageTimes(zone, (res.locals.now as Date | undefined) ?? new Date());
  const extra = (res.locals.pageData ?? {}) as Record<string, unknown>;
  // `glance`: the user's projects with their down counts (server/pages/kit/glance.ts), for the title, favicon and switcher.
  const glance = res.locals.glance as unknown;
  const shared = { siteName: config.siteName, baseUrl: config.baseUrl, user, csrf, notice, times, zoneSwitch: switcher, theme: user?.theme ?? 'system', wall: res.locals.wall === true, glance, here: req.method === 'GET' ? req.originalUrl : '/projects/', checkName };
  const access = view === 'error' ? (res.locals.access as Record<string, unknown> | undefined) : undefined;
  if (access) Object.assign(shared, { project: access.project, role: access.role });
  const html = eta.render(view, { ...shared, ...extra, ...(data as object) });
  res.status(status).set(PAGE_HEADERS).type('html').send(html);
}

/**
 * `views/<view>.eta` with `data` and the site's name and root only: a document that is the same for every visitor (a public status page and its
 * feeds, server/status/render.ts), so it can be cached.
 */
export function renderShared(view: string, data: Record<string, unknown>): string {
  return eta.render(view, { siteName: config.siteName, baseUrl: config.baseUrl, ...data });
}

/** The request's `it.times`: in the zone `?tz=` chose or the signed-in user's, relative to the app clock's present (`res.locals.now`). */
export function timesOf(req: Request, res: Response): PageTimes {
  return pageTimes(zoneOfRequest(req, res, currentUser(res)?.tz).zone, (res.locals.now as Date | undefined) ?? new Date());
}

/** `views/<view>.eta` rendered alone, without the layout (a fragment the page's script inserts), with `it.times`. */
export function renderFragment<V extends keyof PageViews>(req: Request, res: Response, view: V, data: PageViews[V]): string {
  return eta.render(view, { times: timesOf(req, res), ...(data as object) });
}
