/**
 * The Management API (seed: Management API summary; behaviour.md §3),
 * mounted at `/api/v1`, `/api/v2` and `/api/v3` (§3.1 rule 1). Paths are matched exactly: case-sensitive, and a
 * collection needs its trailing slash (§3.1 rule 2).
 */
import { Router } from 'express';
import type { AppDeps } from '../app.js';
import { checksRouter } from './checks.js';
import { pingsRouter } from './pings.js';
import { flipsRouter } from './flips.js';
import { channelsRouter } from './channels.js';
import { badgesRouter } from './badges.js';

/**
 * Composes the Management API's routers.
 *
 * @param deps - Clock and queues used by the check endpoints.
 */
export function apiRouter(deps: AppDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.use(checksRouter(deps), pingsRouter(), flipsRouter(deps), channelsRouter(), badgesRouter());
  return router;
}
