/** Per-path methods with CORS (docs/api-reference.md, "CORS and methods"): OPTIONS 204 without auth; other methods, HEAD too, 405 empty. */
import type { RequestHandler, Router } from 'express';

/** Handlers per allowed method. */
export type MethodHandlers = Partial<Record<'GET' | 'POST' | 'DELETE', RequestHandler[]>>;

/** Sets the CORS headers of an endpoint allowing `methods` (OPTIONS added). */
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
 * Mounts `handlers` on `path`, answering OPTIONS and 405 itself; `guard` runs first for every method (a 404 for a
 * malformed id: route match comes first in docs/api-reference.md, "Status codes").
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
