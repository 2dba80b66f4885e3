/**
 * The web app (docs/web-app.md): server-rendered Eta pages for people who sign in with email and password, with
 * sessions in Redis, CSRF tokens on every state-changing request (csrf-sync, synchroniser tokens kept in the session),
 * and role checks on every page. Each area's `static/` folder (server/pages/kit/folders.ts) is served at `/static/`.
 */
import { fileURLToPath } from 'node:url';
import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { csrfSync } from 'csrf-sync';
import type { AppDeps } from '../deps.js';
import { AppError } from '../../shared/errors.js';
import { logger } from '../../shared/logger.js';
import { firstTextProblem } from '../../shared/domain/text.js';
import { webOptionsOf } from './kit/options.js';
import { sessionMiddleware } from './kit/session.js';
import { accountLimits } from './kit/limits.js';
import { loadUser } from './kit/guard.js';
import { PAGE_HEADERS, render } from './kit/render.js';
import { staticFolders } from './kit/folders.js';
import { accountRouter } from './account/account.js';
import { recoveryRouter } from './account/recovery.js';
import { emailChangeRouter } from './account/email-change.js';
import { accountPageRouter } from './account/account-page.js';
import { accountDisplayRouter } from './account/account-display.js';
import { UserSessions } from './account/sessions.js';
import { twoFactorRouter } from './account/two-factor.js';
import { securityKeysRouter } from './account/security-keys.js';
import { oidcRouter, remoteUser } from './account/sso.js';
import { projectsRouter } from './members/projects.js';
import { membersRouter } from './members/members.js';
import { checksRouter } from './checks/checks.js';
import { checkPageRouter } from './checks/check-page.js';
import { checkActionsRouter } from './checks/check-actions.js';
import { checkListRouter } from './checks/list/check-list.js';
import { glanceOf } from './kit/glance.js';
import { integrationsRouter } from './integrations/integrations.js';
import { maintenanceRouter } from './checks/maintenance.js';
import { statusPagesRouter } from './status-pages/status-pages.js';
import { statusIncidentsRouter } from './status-pages/status-incidents.js';
import { logoUpload } from './status-pages/upload.js';
import { channelLinksRouter, unsubscribeRouter } from './integrations/channel-links.js';
import { timelineRouter } from './checks/timeline.js';
import { badgePageRouter } from './checks/badge-page.js';
import { docsFilesRouter, docsRouter } from './docs/docs.js';
import { wallRouter } from './wall/wall.js';
import { reportsRouter, reportsUnsubscribeRouter } from './account/reports.js';
import { pageNotFound } from './kit/not-found.js';

const log = logger.child({ module: 'pages' });
/** \@simplewebauthn/browser's ES modules, served as they are installed (no build step, nothing from a CDN). */
const WEBAUTHN_BROWSER = fileURLToPath(new URL('../../../node_modules/@simplewebauthn/browser/esm/', import.meta.url));
/** Paths of the pages: only these get a session, so the API and the badges never touch one. */
const PAGE_PATH = /^\/(signin\/(two-factor(\/webauthn)?|oidc(\/callback|\/link)?|(reset|link)\/([^/]+)?)?|signout\/|signup\/|account\/.*|integrations\/(confirm|unsubscribe)\/[^/]+|projects\/.*|invite\/[^/]+|docs\/?[^/]*|wall\/([^/]+)?)?$/;
/** Largest form body read, bytes. */
const FORM_LIMIT = '64 KB';

/** Status and message of a refused CSRF token (csrf-sync's error carries `code`). */
function isCsrfError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'EBADCSRFTOKEN';
}

/**
 * The 4xx status of an error about the request rather than about us: body-parser's (`type` and `status`, e.g. 413
 * `entity.too.large`) or the router's (a path parameter that does not URL-decode, 400); null for any other error.
 */
function requestError(err: unknown): number | null {
  const { status } = (typeof err === 'object' && err !== null ? err : {}) as { status?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}

/** Refuses a form with a NUL character (or a lone surrogate) in any field, naming it: no field takes one (shared/domain/text.ts). */
const refuseNul: RequestHandler = (req, _res, next) => {
  const found = firstTextProblem(req.body ?? {});
  next(found ? new AppError(400, `the field “${found.path.replace(/\[\d+\]$/, '')}” ${found.problem}, which no field takes`) : undefined);
};

/** Errors of the pages as pages: an AppError's status and message, a refused CSRF token 403, a request's own 4xx (body, path), anything else 500. */
const pageErrors: ErrorRequestHandler = (err, req, res, _next) => {
  if (err instanceof AppError) return render(req, res, 'error', { title: 'Error', status: err.status, message: err.message }, err.status);
  if (isCsrfError(err)) {
    const message = 'this form has expired or did not come from this site: go back, reload the page and try again';
    return render(req, res, 'error', { title: 'Error', status: 403, message }, 403);
  }
  const status = requestError(err);
  if (status === 413) return render(req, res, 'error', { title: 'Error', status, message: `this form is too large (over ${FORM_LIMIT}): shorten what you typed` }, status);
  if (status !== null) return render(req, res, 'error', { title: 'Error', status, message: 'this request could not be read: check the address or reload the page and try again' }, status);
  log.error({ err, path: req.path }, 'unhandled page error');
  res.status(500).set(PAGE_HEADERS).type('text').send('internal error');
};

/**
 * The web app's routes, mounted at the root after the API's.
 *
 * @param deps - The app's connections; `deps.web` overrides the settings (tests).
 */
export function pagesRouter(deps: AppDeps): Router {
  const options = deps.web ?? webOptionsOf();
  const router = Router({ strict: true, caseSensitive: true });
  router.use('/static/vendor/simplewebauthn', express.static(WEBAUTHN_BROWSER, { index: false, redirect: false, setHeaders: (res) => res.set(PAGE_HEADERS).set('Cache-Control', 'no-cache') }));
  for (const dir of staticFolders()) {
    router.use('/static', express.static(dir, { index: false, redirect: false, setHeaders: (res) => res.set(PAGE_HEADERS).set('Cache-Control', 'no-cache') }));
  }

  const pages = Router({ strict: true, caseSensitive: true });
  const { csrfSynchronisedProtection } = csrfSync({
    getTokenFromRequest: (req) => {
      const body = req.body as Record<string, unknown> | undefined;
      return typeof body?._csrf === 'string' ? body._csrf : req.get('x-csrf-token');
    },
  });
  pages.use(sessionMiddleware(deps.redis, options));
  pages.use(express.urlencoded({ extended: false, limit: FORM_LIMIT }));
  pages.use(logoUpload);
  pages.use(refuseNul);
  pages.use(csrfSynchronisedProtection);
  pages.use(loadUser);
  // The request's present, from the app's clock: times on every page are relative to it (server/pages/times.ts).
  pages.use((_req, res, next) => {
    res.locals.now = deps.clock();
    next();
  });
  pages.use(glanceOf(deps.clock));
  const sessions = new UserSessions(deps.redis, options);
  pages.use(sessions.touch(deps.clock));
  pages.use(remoteUser(options, sessions, deps.clock));
  const limits = accountLimits(deps.redis, options);
  pages.use(oidcRouter(options, sessions, limits, deps.clock));
  pages.use(accountDisplayRouter(sessions));
  pages.use(accountRouter(options, limits, sessions, deps.clock));
  pages.use(twoFactorRouter(options, sessions, limits, deps.clock));
  pages.use(securityKeysRouter(options, deps.clock));
  pages.use(accountPageRouter(sessions, limits, deps.redis, deps.clock));
  pages.use(recoveryRouter(options, limits, sessions, deps.clock));
  pages.use(emailChangeRouter(options, limits, sessions, deps.clock));
  pages.use(projectsRouter(deps.clock, deps.redis));
  pages.use(membersRouter(options, deps.clock));
  pages.use(checkActionsRouter(deps));
  pages.use(checkListRouter(deps));
  pages.use(checksRouter(deps));
  pages.use(checkPageRouter(deps));
  pages.use(integrationsRouter(deps, options, limits));
  pages.use(maintenanceRouter(deps));
  pages.use(statusPagesRouter(deps), statusIncidentsRouter(deps));
  pages.use(channelLinksRouter(options, deps.clock));
  pages.use(timelineRouter(), badgePageRouter());
  pages.use(docsRouter());
  pages.use(wallRouter(options));
  pages.use(reportsRouter(options, deps.clock));
  pages.use(pageNotFound);
  pages.use(pageErrors);

  // Before the session and CSRF middleware: a mail client's one-click unsubscribe has neither (RFC 8058).
  router.use(unsubscribeRouter(options, deps.clock), pageErrors);
  router.use(docsFilesRouter());
  router.use(reportsUnsubscribeRouter(options, deps.clock), pageErrors);
  router.use((req, res, next) => (PAGE_PATH.test(req.path) ? pages(req, res, next) : next()));
  // Any other address a browser asks for: the 404 page, signed out (no session outside PAGE_PATH).
  router.use(pageNotFound);
  return router;
}
