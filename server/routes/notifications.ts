/** `GET checks/<uuid>/notifications/`: a check's notification log, newest first; the pings list's auth (read-write keys, UUID form only). */
import { Router } from 'express';
import { endpoint } from '../middleware/endpoint.js';
import { requireKey } from '../middleware/auth.js';
import { checkOf, checkPath, loadCheck } from '../middleware/check.js';
import { presentNotification } from '../presenters/notification.js';
import { listNotifications } from '../services/notifications.js';

/** The route under `checks/<uuid>/notifications/`, relative to `/api/v<N>`. */
export function notificationsRouter(): Router {
  const router = Router({ strict: true, caseSensitive: true });
  endpoint(
    router,
    '/checks/:code/notifications/',
    {
      GET: [
        requireKey('write'),
        loadCheck,
        async (req, res) => {
          res.json({ notifications: (await listNotifications(checkOf(req)._id)).map(presentNotification) });
        },
      ],
    },
    checkPath('uuid'),
  );
  return router;
}
