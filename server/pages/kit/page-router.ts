/**
 * The one router every page area is mounted in (docs/web-app.md): a session in Redis, the form body, CSRF tokens on
 * every state-changing request (csrf-sync, synchroniser tokens kept in the session), the signed-in user, the app
 * clock's present and the header's glance, then the areas' routes, the signed-in 404 and the error pages. Nothing
 * outside it touches a session: server/pages/index.ts sends it only the paths its routes own (kit/page-paths.ts).
 */
import express, { Router, type RequestHandler } from 'express';
import { csrfSync } from 'csrf-sync';
import { AppError } from '../../../shared/errors.js';
import { firstTextProblem } from '../../../shared/domain/text.js';
import type { PageArea, PageContext } from './area.js';
import { sessionMiddleware } from './session.js';
import { loadUser } from './guard.js';
import { glanceOf } from './glance.js';
import { pageNotFound } from './not-found.js';
import { FORM_LIMIT, pageErrors } from './page-errors.js';

/** Refuses a form with a NUL character (or a lone surrogate) in any field, naming it: no field takes one (shared/domain/text.ts). */
const refuseNul: RequestHandler = (req, _res, next) => {
  const found = firstTextProblem(req.body ?? {});
  next(found ? new AppError(400, `the field “${found.path.replace(/\[\d+\]$/, '')}” ${found.problem}, which no field takes`) : undefined);
};

/**
 * The page router with `areas` mounted in it, in order.
 *
 * @param ctx - Connections, settings and limits the areas are built from.
 * @param areas - The web app's areas; their `body` parsers and `everyPage` middleware run on every page request.
 * @returns A router whose every route has a session, a CSRF check on POST and `res.locals.user`.
 */
export function pageRouter(ctx: PageContext, areas: readonly PageArea[]): Router {
  const { deps, options } = ctx;
  const pages = Router({ strict: true, caseSensitive: true });
  const { csrfSynchronisedProtection } = csrfSync({
    getTokenFromRequest: (req) => {
      const body = req.body as Record<string, unknown> | undefined;
      return typeof body?._csrf === 'string' ? body._csrf : req.get('x-csrf-token');
    },
  });
  pages.use(sessionMiddleware(deps.redis, options));
  pages.use(express.urlencoded({ extended: false, limit: FORM_LIMIT }));
  for (const area of areas) if (area.body) pages.use(area.body);
  pages.use(refuseNul);
  pages.use(csrfSynchronisedProtection);
  pages.use(loadUser);
  // The request's present, from the app's clock: times on every page are relative to it (server/pages/kit/times.ts).
  pages.use((_req, res, next) => {
    res.locals.now = deps.clock();
    next();
  });
  pages.use(glanceOf(deps.clock));
  for (const area of areas) if (area.everyPage) pages.use(area.everyPage(ctx));
  for (const area of areas) for (const router of area.pages(ctx)) pages.use(router);
  pages.use(pageNotFound);
  pages.use(pageErrors);
  return pages;
}
