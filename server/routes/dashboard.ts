/**
 * The web dashboard (issue 9): `GET /` serves its page and `/dashboard/<file>`
 * its scripts and styles, from `server/dashboard/`. The page signs in with a
 * project API key and reads and writes through the v3 Management API only.
 *
 * The page and every file are served with a Content-Security-Policy that allows
 * nothing but this origin (no inline script, no CDN: the dashboard works
 * offline). The files are served from the checkout as they are (tsc does not
 * copy them into dist/), so a deployment runs from the whole checkout, as
 * `npm start` and the Procfile do.
 */
import { fileURLToPath } from 'node:url';
import express, { Router, type Response } from 'express';

/** `server/dashboard/` of the checkout: from `dist/server/routes/` three levels up. */
const ASSETS = fileURLToPath(new URL('../../../server/dashboard/', import.meta.url));

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // Revalidate on every load, so a deploy is seen at once.
  'Cache-Control': 'no-cache',
};

function secure(res: Response): void {
  res.set(SECURITY_HEADERS);
}

/** Routes of the dashboard, mounted at the root of the app. */
export function dashboardRouter(): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.get('/', (_req, res) => {
    secure(res);
    res.sendFile('index.html', { root: ASSETS });
  });
  router.use('/dashboard', express.static(ASSETS, { index: false, redirect: false, setHeaders: secure }));
  return router;
}
