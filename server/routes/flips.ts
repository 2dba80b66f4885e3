/** `GET checks/<uuid or unique_key>/flips/` (docs/api-reference.md, "Endpoints"): a bare array, as Healthchecks documents it; bad query 400. */
import { Router } from 'express';
import type { AppDeps } from '../deps.js';
import { endpoint } from '../middleware/endpoint.js';
import { requireKey } from '../middleware/auth.js';
import { checkOf, checkPath, loadCheck } from '../middleware/check.js';
import { parseQuery } from '../schemas/parse.js';
import { flipsQuerySchema } from '../schemas/query.js';
import { presentFlip } from '../presenters/flip.js';
import { listFlips } from '../services/flips.js';
import { AppError } from '../../shared/errors.js';

/** Routes under `checks/<code>/flips/`, relative to `/api/v<N>`; `deps.clock` serves the `seconds` filter. */
export function flipsRouter(deps: AppDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });
  endpoint(
    router,
    '/checks/:code/flips/',
    {
      GET: [
        requireKey('read'),
        loadCheck,
        async (req, res) => {
          const query = parseQuery(flipsQuerySchema, req.query, new AppError(400, 'invalid flips query', 'empty'));
          const flips = await listFlips(checkOf(req)._id, query, deps.clock());
          res.json(flips.map(presentFlip));
        },
      ],
    },
    checkPath('uuid-or-key'),
  );
  return router;
}
