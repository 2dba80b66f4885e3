/**
 * The Management API at `/api/v1`, `/api/v2` and `/api/v3` (docs/api-reference.md, "Paths and versions"): paths match exactly,
 * case-sensitive, collections with their trailing slash.
 */
import { Router } from 'express';
import type { AppDeps } from '../deps.js';
import { checksRouter } from './checks.js';
import { pingsRouter } from './pings.js';
import { flipsRouter } from './flips.js';
import { channelsRouter } from './channels.js';
import { notificationsRouter } from './notifications.js';
import { integrationsRouter } from './integrations.js';
import { badgesRouter } from './badges.js';
import { maintenanceRouter } from './maintenance.js';
import { endpoint } from '../middleware/endpoint.js';
import { openApiDocument } from '../openapi/document.js';
import { config } from '../../shared/config.js';

/** The Management API's routers, and its OpenAPI description at `openapi.json` (no key needed). */
export function apiRouter(deps: AppDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const openapi = JSON.stringify(openApiDocument(config.baseUrl));
  endpoint(router, '/openapi.json', { GET: [(_req, res) => void res.type('application/json').send(openapi)] });
  router.use(checksRouter(deps), pingsRouter(), flipsRouter(deps), notificationsRouter(), channelsRouter(), integrationsRouter(deps), badgesRouter(), maintenanceRouter(deps));
  return router;
}
