/**
 * Which requests enter the page router: those whose first path segment (`projects` of `/projects/…`, the empty one of `/`) is
 * the first segment of one of its routes. Read from the router's own routes, so a page added to an area is covered
 * with nothing else to change, while an address under no page (`/wp-login.php`, an unknown `/api/…` path) never
 * touches a session and gets the signed-out 404.
 */
import type { Router } from 'express';

/** The parts of Express 5's router layers read here (the `router` package's Layer). */
interface Layer {
  route?: { path: unknown };
  slash?: boolean;
  handle?: { stack?: Layer[] };
}

/** The first segment of a route path: `projects` for `/projects/:projectId/`, empty for `/`. @throws Error for a parameter or a pattern. */
function firstSegment(path: unknown): string {
  if (typeof path !== 'string') throw new Error(`a page route's path must be a string, not ${String(path)}`);
  const segment = path.split('/')[1] ?? '';
  if (/[:*?(){}]/.test(segment)) throw new Error(`a page route must start with a fixed segment: ${path}`);
  return segment;
}

/** The first segments of every route of `stack`, and of the routers mounted in it at the root. */
function segmentsOf(stack: Layer[], into: Set<string>): Set<string> {
  for (const layer of stack) {
    if (layer.route) {
      for (const path of Array.isArray(layer.route.path) ? (layer.route.path as unknown[]) : [layer.route.path]) into.add(firstSegment(path));
    } else if (layer.handle?.stack) {
      if (!layer.slash) throw new Error('mount an area router at the root of the page router');
      segmentsOf(layer.handle.stack, into);
    }
  }
  return into;
}

/**
 * A test of whether a path belongs to the page router, read once from its routes (call it after mounting them all).
 *
 * @param router - The page router with every area's routes mounted at its root.
 * @returns `(path) => boolean` for `req.path`.
 * @throws Error if a route's path is not a string starting with a fixed segment, or an area is mounted under a path.
 */
export function pagePathsOf(router: Router): (path: string) => boolean {
  const segments = segmentsOf((router as unknown as { stack: Layer[] }).stack, new Set());
  return (path) => segments.has(path.split('/')[1] ?? '');
}
