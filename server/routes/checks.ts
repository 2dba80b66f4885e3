/**
 * Check endpoints of the Management API (docs/api-reference.md, "Endpoints"): list, create,
 * get (by UUID or `unique_key`), update, delete, pause and resume.
 */
import { Router, type Request } from 'express';
import type { AppDeps } from '../deps.js';
import { endpoint } from '../middleware/endpoint.js';
import { parseJsonBody } from '../middleware/body.js';
import { authOf, requireKey } from '../middleware/auth.js';
import { checkOf, checkPath, loadCheck } from '../middleware/check.js';
import { parseBody, parseQuery } from '../schemas/parse.js';
import { checkSchema } from '../schemas/check.js';
import { listChecksQuerySchema } from '../schemas/query.js';
import { presentCheck, type CheckView } from '../presenters/check.js';
import * as checks from '../services/checks.js';
import { apiVersionOf } from '../middleware/version.js';
import { AppError } from '../../shared/errors.js';
import { maintenanceOf } from '../../shared/checks/maintenance.js';

/** Routes under `checks/`, relative to `/api/v<N>`. */
export function checksRouter(deps: AppDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });
  // One read of the project's maintenance windows per request: a check shows `maintenance: true` while one covers it.
  const view = async (req: Request): Promise<CheckView> => {
    const now = deps.clock();
    const { project, readOnly } = authOf(req);
    return { readOnly, now, version: apiVersionOf(req), maintenanceUntil: await maintenanceOf([{ projectId: project._id }], now) };
  };

  endpoint(router, '/checks/', {
    GET: [
      requireKey('read'),
      async (req, res) => {
        const query = parseQuery(listChecksQuerySchema, req.query, new AppError(400, 'invalid query'));
        const list = await checks.listChecks(authOf(req).project, query);
        const shown = await view(req);
        res.json({ checks: list.map((check) => presentCheck(check, shown)) });
      },
    ],
    POST: [
      parseJsonBody,
      requireKey('write'),
      async (req, res) => {
        const write = { input: parseBody(checkSchema, req.body), version: apiVersionOf(req) };
        const { check, created } = await checks.createCheck(deps, authOf(req).project, write);
        res.status(created ? 201 : 200).json(presentCheck(check, await view(req)));
      },
    ],
  });

  endpoint(
    router,
    '/checks/:code',
    {
      GET: [requireKey('read'), loadCheck, async (req, res) => void res.json(presentCheck(checkOf(req), await view(req)))],
      POST: [
        parseJsonBody,
        requireKey('write'),
        loadCheck,
        async (req, res) => {
          const write = { input: parseBody(checkSchema, req.body), version: apiVersionOf(req) };
          res.json(presentCheck(await checks.updateCheck(deps, checkOf(req), write), await view(req)));
        },
      ],
      DELETE: [
        requireKey('write'),
        loadCheck,
        async (req, res) => void res.json(presentCheck(await checks.deleteCheck(deps, checkOf(req)), await view(req))),
      ],
    },
    checkPath('uuid-or-key'),
  );

  endpoint(
    router,
    '/checks/:code/pause',
    {
      POST: [
        parseJsonBody,
        requireKey('write'),
        loadCheck,
        async (req, res) => void res.json(presentCheck(await checks.pauseCheck(deps, checkOf(req)), await view(req))),
      ],
    },
    checkPath('uuid'),
  );

  endpoint(
    router,
    '/checks/:code/resume',
    {
      POST: [
        parseJsonBody,
        requireKey('write'),
        loadCheck,
        async (req, res) => void res.json(presentCheck(await checks.resumeCheck(deps, checkOf(req)), await view(req))),
      ],
    },
    checkPath('uuid'),
  );

  return router;
}
