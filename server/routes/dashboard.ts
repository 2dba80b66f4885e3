/**
 * The read-only wall display (README, Dashboard): the key-based dashboard, `GET /wall/` and `/dashboard/<file>` from the checkout's `server/dashboard/` (tsc
 * does not copy them to dist/), with a Content-Security-Policy allowing this origin only.
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
  router.get('/wall/', (_req, res) => {
    secure(res);
    res.sendFile('index.html', { root: ASSETS });
  });
  router.use('/dashboard', express.static(ASSETS, { index: false, redirect: false, setHeaders: secure }));
  return router;
}
