/**
 * What a page area (checks/, integrations/, account/, …) hands the web app: its routes, mounted by server/pages/index.ts
 * behind the one page router (server/pages/kit/page-router.ts), so every route of an area gets the session, body
 * parsing, CSRF protection and the signed-in user without asking for them.
 */
import type { RequestHandler, Router } from 'express';
import type { AppDeps } from '../../deps.js';
import type { AccountLimits } from './limits.js';
import type { WebOptions } from './options.js';

/** What every area's routes are built from: the app's connections and clock, the pages' settings, the attempt limits. */
export interface PageContext {
  deps: AppDeps;
  options: WebOptions;
  limits: AccountLimits;
}

/** One area of the web app. */
export interface PageArea {
  /** The area's pages: behind the session, the form body, CSRF and the signed-in user. */
  pages: (ctx: PageContext) => Router[];
  /** A body parser for a form urlencoded parsing does not read (multipart), run before the CSRF check finds `_csrf` in it. */
  body?: RequestHandler;
  /** Middleware run on every page request before any area's routes (the session's last-seen time, a proxy's sign-in). */
  everyPage?: (ctx: PageContext) => RequestHandler[];
  /**
   * Routes that must work without a session or CSRF token, mounted before the page router: a mail client's one-click
   * unsubscribe (RFC 8058) and files served as they are. Each is a deliberate exception; a page goes in `pages`.
   */
  open?: (ctx: PageContext) => Router[];
}
