/** `GET badges/` (docs/api-reference.md, "Endpoints", "Badges"): the URLs of each tag and `*`; read-only keys too. */
import { Router } from 'express';
import { endpoint } from '../middleware/endpoint.js';
import { authOf, requireKey } from '../middleware/auth.js';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { badgeUrls, type BadgeUrls } from '../../shared/domain/badges.js';
import { config } from '../../shared/config.js';

/** The `badges/` route, relative to `/api/v<N>`. */
export function badgesRouter(): Router {
  const router = Router({ strict: true, caseSensitive: true });
  endpoint(router, '/badges/', {
    GET: [
      requireKey('read'),
      async (req, res) => {
        const { project } = authOf(req);
        const checks = await Check.find({ projectId: project._id }, { tags: 1 }).lean<Array<Pick<CheckDoc, 'tags'>>>();
        const tags = new Set(checks.flatMap((check) => check.tags.split(/\s+/).filter((tag) => tag !== '')));
        const badges: Record<string, BadgeUrls> = {};
        for (const tag of [...[...tags].sort(), '*']) {
          badges[tag] = badgeUrls(config.baseUrl, project.badgeKey, config.secretKey, tag);
        }
        res.json({ badges });
      },
    ],
  });
  return router;
}
