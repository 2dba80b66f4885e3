/**
 * The web process's request listener: `/ping/…` goes to the lean Pinging API
 * handler (server/ping/handler.ts, no Express), everything else to the Express
 * application, built without `listen` (tests mount either with supertest).
 *
 * Paths: `/api/v1/…`, `/api/v2/…` and `/api/v3/…` Management API (the same
 * operations; docs/api-reference.md, "Paths and versions"), `/ping/…` Pinging API,
 * `/badge/…` and `/b/…` badge documents, `/api/v<N>/status/` health check,
 * `/projects/<uuid>/metrics/…` per-project Prometheus metrics, and the operator
 * endpoints (process metrics, `/admin/queues`) when a credential is configured,
 * and the web app's pages (server/pages: `/`, `/signin/`, `/projects/…`, `/invite/…`, `/static/…`, `/docs/…`),
 * the wall display at `/wall/` among them.
 */
import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import { apiRouter } from './routes/api.js';
import { API_VERSIONS, useApiVersion } from './middleware/version.js';
import { isPingPath, pingListener, splitUrl } from './ping/handler.js';
import { badgeRouter } from './routes/badge.js';
import { errorHandler, notFoundHandler } from './middleware/errors.js';
import { projectMetricsRouter } from './routes/project-metrics.js';
import { opsRouter } from './routes/ops.js';
import { pagesRouter } from './pages/index.js';
import { webOptionsOf } from './pages/kit/options.js';
import { statusRouter } from './status/routes.js';
import { expressTrustOf } from './proxy.js';
import { isDbReachable } from '../shared/db.js';
import { config } from '../shared/config.js';
import type { AppDeps } from './deps.js';


/** Longest the status check waits for MongoDB or Redis, milliseconds: a frozen server answers a load balancer 503, not a hang. */
const STATUS_TIMEOUT_MS = 2_000;
/** `Retry-After` of a 503 status answer, seconds. */
const STATUS_RETRY_AFTER_S = 5;

/** The check's answer, or false when it has none within {@link STATUS_TIMEOUT_MS}. */
function withinStatusTimeout(check: Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, STATUS_TIMEOUT_MS, false)));
  return Promise.race([check, late]).finally(() => clearTimeout(timer));
}

/**
 * Builds the request listener of the web process: a request whose path is
 * `/ping` or below `/ping/` (case-sensitive, undecoded, as Express's
 * `app.use('/ping', …)` matched it) is answered by the Pinging API handler,
 * any other by {@link createApp}.
 *
 * @param deps - Connections and the clock; tests pass their own.
 */
export function createWebHandler(deps: AppDeps): RequestListener {
  const app = createApp(deps);
  const ping = pingListener(deps);
  return (req, res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (isPingPath(splitUrl(req.url ?? '').path)) ping(req, res);
    else app(req, res);
  };
}

/**
 * Builds the Express application: everything but the Pinging API.
 *
 * @param deps - Connections and the clock; tests pass their own.
 */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Paths match exactly, as in the reference: `/PING/<uuid>` or `/API/v3/…` is no route (docs/api-reference.md, "Paths and versions"; docs/pinging.md, "URLs").
  // Settings before the first app.use(): the router is made then, with the routing settings of that moment.
  app.set('case sensitive routing', true);
  const ops = deps.ops ?? config.ops;
  const web = deps.web ?? webOptionsOf();
  // `req.ip` and `req.secure` (the session's Secure cookie) believe X-Forwarded-* only from TRUSTED_PROXIES (server/proxy.ts).
  app.set('trust proxy', expressTrustOf(web));
  // Every answer, JSON and errors included: a browser never guesses another type than the one sent.
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  // First: public status pages take the crowds, answered from a cache (server/status/routes.ts).
  app.use(statusRouter(deps, web));

  const api = apiRouter(deps);
  for (const version of API_VERSIONS) {
    app.get(`/api/v${version}/status/`, async (_req, res) => {
      const [db, redis] = await Promise.all([withinStatusTimeout(isDbReachable()), withinStatusTimeout(deps.redis.ping().then(() => true, () => false))]);
      if (!(db && redis)) res.set('Retry-After', String(STATUS_RETRY_AFTER_S));
      res.status(db && redis ? 200 : 503).type('text/plain').send(db && redis ? 'OK' : 'unavailable');
    });
    app.use(`/api/v${version}`, useApiVersion(version), api);
  }
  app.use(badgeRouter(deps.clock));
  if (ops.prometheusEnabled) app.use(projectMetricsRouter(deps.clock));
  app.use(opsRouter(ops, deps.queues));
  app.use(pagesRouter(deps));

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
