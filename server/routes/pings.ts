/** Ping log endpoints (docs/api-reference.md, "Endpoints"), read-write keys only; `?exitstatus=1` is our extension (the earlier wall display used it). */
import { Router } from 'express';
import { endpoint } from '../middleware/endpoint.js';
import { authOf, requireKey } from '../middleware/auth.js';
import { checkOf, checkPath, loadCheck } from '../middleware/check.js';
import { presentPings } from '../presenters/ping.js';
import { listPings, pingBody } from '../services/pings.js';
import { apiVersionOf } from '../middleware/version.js';

/** Routes under `checks/<uuid>/pings/`, relative to `/api/v<N>`. */
export function pingsRouter(): Router {
  const router = Router({ strict: true, caseSensitive: true });

  endpoint(
    router,
    '/checks/:code/pings/',
    {
      GET: [
        requireKey('write'),
        loadCheck,
        async (req, res) => {
          const check = checkOf(req);
          const view = { version: apiVersionOf(req), exitStatus: req.query.exitstatus === '1' };
          res.json({ pings: presentPings(check._id, await listPings(authOf(req).project, check), view) });
        },
      ],
    },
    checkPath('uuid'),
  );

  endpoint(
    router,
    '/checks/:code/pings/:n/body',
    {
      GET: [
        requireKey('write'),
        loadCheck,
        async (req, res) => {
          const body = await pingBody(authOf(req).project, checkOf(req), Number(req.params.n));
          // setHeader, not res.type(): Express would append "; charset=utf-8" (docs/api-reference.md, "Endpoints": no charset).
          res.status(200).setHeader('Content-Type', 'text/plain');
          res.end(body);
        },
      ],
    },
    checkPath('uuid'),
  );

  return router;
}
