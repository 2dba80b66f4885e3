/**
 * Per-path method handling with CORS (behaviour.md §3.4): OPTIONS → 204 with no
 * auth, a method not allowed → 405 with an empty body, and CORS headers on every
 * response. `HEAD` is not treated as GET (405).
 */
import type { RequestHandler, Router } from 'express';

/** Handlers per allowed method. */
export type MethodHandlers = Partial<Record<'GET' | 'POST' | 'DELETE', RequestHandler[]>>;

/**
 * Sets the CORS headers of an endpoint allowing `methods`.
 *
 * @param methods - Allowed methods, without OPTIONS.
 */
export function corsHeaders(methods: string[]): RequestHandler {
  const allow = [...methods, 'OPTIONS'].join(', ');
  return (_req, res, next) => {
    res.set({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'X-Api-Key',
      'Access-Control-Allow-Methods': allow,
      'Access-Control-Max-Age': '600',
    });
    next();
  };
}

const noContent: RequestHandler = (_req, res) => void res.status(204).end();
const notAllowed: RequestHandler = (_req, res) => void res.status(405).end();

/**
 * Mounts `handlers` on `path` of `router`, answering OPTIONS and 405 itself.
 *
 * @param guard - Runs first for every method, before OPTIONS and 405 (for
 *   example a 404 for a malformed id, since route match comes first in §3.5).
 */
export function endpoint(router: Router, path: string, handlers: MethodHandlers, guard?: RequestHandler): void {
  const route = router.route(path).all(corsHeaders(Object.keys(handlers)));
  if (guard) route.all(guard);
  route.options(noContent).head(notAllowed);
  if (handlers.GET) route.get(...handlers.GET);
  if (handlers.POST) route.post(...handlers.POST);
  if (handlers.DELETE) route.delete(...handlers.DELETE);
  route.all(notAllowed);
}
