/**
 * The web app (docs/web-app.md): server-rendered Eta pages, one folder per area (docs/architecture.md, "The web
 * app's folders"), all mounted in the one page router of kit/page-router.ts, which gives every page its session in
 * Redis, CSRF protection and role-checked user. Each area's `static/` folder (kit/folders.ts) is served at `/static/`.
 */
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import type { AppDeps } from '../deps.js';
import type { PageArea } from './kit/area.js';
import { webOptionsOf } from './kit/options.js';
import { accountLimits } from './kit/limits.js';
import { PAGE_HEADERS } from './kit/render.js';
import { staticFolders } from './kit/folders.js';
import { pageRouter } from './kit/page-router.js';
import { pagePathsOf } from './kit/page-paths.js';
import { pageErrors } from './kit/page-errors.js';
import { pageNotFound } from './kit/not-found.js';
import { accountArea } from './account/index.js';
import { membersArea } from './members/index.js';
import { checksArea } from './checks/index.js';
import { integrationsArea } from './integrations/index.js';
import { statusPagesArea } from './status-pages/index.js';
import { docsArea } from './docs/index.js';
import { wallArea } from './wall/index.js';

/** \@simplewebauthn/browser's ES modules, served as they are installed (no build step, nothing from a CDN). */
const WEBAUTHN_BROWSER = fileURLToPath(new URL('../../../node_modules/@simplewebauthn/browser/esm/', import.meta.url));

/** The web app's areas in the order their routes are tried. */
export const PAGE_AREAS: readonly PageArea[] = [accountArea, membersArea, checksArea, integrationsArea, statusPagesArea, docsArea, wallArea];

/** How static files are answered: the pages' headers, revalidated on each load (their names carry no version). */
const STATIC_OPTIONS = { index: false, redirect: false, setHeaders: (res: express.Response) => res.set(PAGE_HEADERS).set('Cache-Control', 'no-cache') };

/**
 * The web app's routes, mounted at the root after the API's.
 *
 * @param deps - The app's connections; `deps.web` overrides the settings (tests).
 * @param areas - The areas mounted, {@link PAGE_AREAS} unless given (a test adds one).
 */
export function pagesRouter(deps: AppDeps, areas: readonly PageArea[] = PAGE_AREAS): Router {
  const options = deps.web ?? webOptionsOf();
  const ctx = { deps, options, limits: accountLimits(deps.redis, options) };
  const router = Router({ strict: true, caseSensitive: true });
  router.use('/static/vendor/simplewebauthn', express.static(WEBAUTHN_BROWSER, STATIC_OPTIONS));
  for (const dir of staticFolders()) router.use('/static', express.static(dir, STATIC_OPTIONS));
  // Before the page router and outside it: what must work without a session or token (a mail client's one-click unsubscribe, RFC 8058).
  for (const area of areas) if (area.open) router.use(...area.open(ctx), pageErrors);

  const pages = pageRouter(ctx, areas);
  const isPage = pagePathsOf(pages);
  router.use((req, res, next) => (isPage(req.path) ? pages(req, res, next) : next()));
  // Any other address a browser asks for: the 404 page, signed out (it never touches a session).
  router.use(pageNotFound);
  return router;
}
