/** Maintenance window endpoints (docs/alerting-rules.md): `maintenance/` (list, create) and `maintenance/<uuid>` (get, update, delete). */
import { Router, type RequestHandler } from 'express';
import type { AppDeps } from '../deps.js';
import { endpoint } from '../middleware/endpoint.js';
import { parseJsonBody } from '../middleware/body.js';
import { authOf, requireKey } from '../middleware/auth.js';
import { parseBody } from '../schemas/parse.js';
import { maintenanceSchema } from '../schemas/maintenance.js';
import { presentMaintenance } from '../presenters/maintenance.js';
import * as windows from '../services/maintenance.js';
import { UUID_RE } from '../../shared/domain/ids.js';
import { notFound } from '../../shared/errors.js';

/** 404 for a malformed `<uuid>`, before the method counts. */
const windowPath: RequestHandler = (req, _res, next) => {
  if (!UUID_RE.test(String(req.params.uuid))) throw notFound();
  next();
};

/** Routes under `maintenance/`, relative to `/api/v<N>`; read-only keys may GET. */
export function maintenanceRouter(deps: AppDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const projectId = (req: Parameters<RequestHandler>[0]) => authOf(req).project._id;

  endpoint(router, '/maintenance/', {
    GET: [
      requireKey('read'),
      async (req, res) => {
        const now = deps.clock();
        res.json({ maintenance: (await windows.listWindows(projectId(req))).map((w) => presentMaintenance(w, now, authOf(req).readOnly)) });
      },
    ],
    POST: [
      parseJsonBody,
      requireKey('write'),
      async (req, res) => {
        const created = await windows.createWindow(deps, projectId(req), parseBody(maintenanceSchema, req.body));
        res.status(201).json(presentMaintenance(created, deps.clock(), false));
      },
    ],
  });

  endpoint(
    router,
    '/maintenance/:uuid',
    {
      GET: [requireKey('read'), async (req, res) => void res.json(presentMaintenance(await windows.getWindow(projectId(req), String(req.params.uuid)), deps.clock(), authOf(req).readOnly))],
      POST: [
        parseJsonBody,
        requireKey('write'),
        async (req, res) => {
          const input = parseBody(maintenanceSchema, req.body);
          const window = await windows.getWindow(projectId(req), String(req.params.uuid));
          res.json(presentMaintenance(await windows.updateWindow(deps, window, input), deps.clock(), false));
        },
      ],
      DELETE: [
        requireKey('write'),
        async (req, res) => {
          const window = await windows.getWindow(projectId(req), String(req.params.uuid));
          res.json(presentMaintenance(await windows.deleteWindow(deps, window), deps.clock(), false));
        },
      ],
    },
    windowPath,
  );
  return router;
}
