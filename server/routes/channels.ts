/** `GET channels/` (docs/api-reference.md, "Endpoints"): channels in creation order; read-write keys only. */
import { Router } from 'express';
import { endpoint } from '../middleware/endpoint.js';
import { authOf, requireKey } from '../middleware/auth.js';
import { presentChannel } from '../presenters/channel.js';
import { Channel, type ChannelDoc } from '../../shared/models/channel.js';

/** The `channels/` route, relative to `/api/v<N>`. */
export function channelsRouter(): Router {
  const router = Router({ strict: true, caseSensitive: true });
  endpoint(router, '/channels/', {
    GET: [
      requireKey('write'),
      async (req, res) => {
        const channels = await Channel.find({ projectId: authOf(req).project._id }).sort({ created: 1 }).lean<ChannelDoc[]>();
        res.json({ channels: channels.map(presentChannel) });
      },
    ],
  });
  return router;
}
