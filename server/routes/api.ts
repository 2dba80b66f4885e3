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
import { endpoint } from '../middleware/endpoint.js';
import { openApiDocument } from '../openapi/document.js';
import { config } from '../../shared/config.js';

/**
 * Composes the Management API's routers, and serves its OpenAPI 3.1
 * description at `openapi.json` (no key needed).
 *
 * @param deps - Clock and queues used by the check endpoints.
 */
export function apiRouter(deps: AppDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const openapi = JSON.stringify(openApiDocument(config.baseUrl));
  endpoint(router, '/openapi.json', { GET: [(_req, res) => void res.type('application/json').send(openapi)] });
  router.use(checksRouter(deps), pingsRouter(), flipsRouter(deps), channelsRouter(), badgesRouter());
  return router;
}
