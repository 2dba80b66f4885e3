/**
 * `integrations/`: channels created, listed with their settings, updated and deleted through the API (docs/api.md, "Notes"; an
 * extension). Beside `channels/`, which stays exactly the reference's (GET only, docs/api-reference.md, "CORS and methods"). Read-write keys only.
 */
import { Router, type RequestHandler } from 'express';
import { endpoint } from '../middleware/endpoint.js';
import { authOf, requireKey } from '../middleware/auth.js';
import { parseJsonBody } from '../middleware/body.js';
import { parseBody } from '../schemas/parse.js';
import { channelSchema, newChannelSchema } from '../schemas/channel.js';
import { presentChannelSettings } from '../presenters/channel.js';
import { assertChannelMembers, channelOf, channelValueOf } from '../services/channel-input.js';
import { Channel, type ChannelDoc } from '../../shared/models/channel.js';
import { createChannel, deleteChannel, newAddresses, updateChannel, type ChannelChange } from '../../shared/services/channels.js';
import { unconfirmedAfter } from '../../shared/services/email-channels.js';
import type { AppDeps } from '../deps.js';
import { webOptionsOf } from '../pages/kit/options.js';
import { accountLimits } from '../pages/kit/limits.js';
import { allowConfirmations, mailInBackground } from '../pages/integrations/index.js';
import { UUID_RE } from '../../shared/domain/ids.js';
import { AppError, notFound } from '../../shared/errors.js';

/** 404 for a malformed `:id`, before the method counts. */
const uuidPath: RequestHandler = (req, _res, next) => (UUID_RE.test(String(req.params.id)) ? next() : next(notFound()));

/**
 * The `integrations/` routes, relative to `/api/v<N>`. A new email address gets a confirmation mail (the pages'
 * relay and limits, server/pages/integrations/channel-links.ts); past the limits, 429.
 */
export function integrationsRouter(deps: AppDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const web = deps.web ?? webOptionsOf();
  const limits = accountLimits(deps.redis, web);
  endpoint(router, '/integrations/', {
    GET: [
      requireKey('write'),
      async (req, res) => {
        const channels = await Channel.find({ projectId: authOf(req).project._id }).sort({ created: 1, _id: 1 }).lean<ChannelDoc[]>();
        res.json({ integrations: channels.map(presentChannelSettings) });
      },
    ],
    POST: [
      parseJsonBody,
      requireKey('write'),
      async (req, res) => {
        const input = parseBody(newChannelSchema, req.body);
        const projectId = authOf(req).project._id;
        const value = channelValueOf(input.kind!, input.value!);
        await assertChannelMembers(projectId, input.kind!, value);
        await allowConfirmations(req, limits.confirm, unconfirmedAfter(null, input.kind!, value));
        const channel = await createChannel({ projectId, kind: input.kind!, name: input.name ?? '', value });
        mailInBackground(web, channel, newAddresses(null, channel), deps.clock());
        const stored = input.disabled ? await updateChannel(channel, { disabled: true }) : channel;
        res.status(201).json(presentChannelSettings(stored));
      },
    ],
  });
  endpoint(
    router,
    '/integrations/:id',
    {
      GET: [requireKey('write'), async (req, res) => void res.json(presentChannelSettings(await channelOf(authOf(req).project, String(req.params.id))))],
      POST: [
        parseJsonBody,
        requireKey('write'),
        async (req, res) => {
          const channel = await channelOf(authOf(req).project, String(req.params.id));
          const { kind, name, value, disabled } = parseBody(channelSchema, req.body);
          // The old value belongs to the old kind: a new kind comes with its value.
          if (kind !== undefined && kind !== channel.kind && value === undefined) throw new AppError(400, 'json validation error: value is missing');
          const change: ChannelChange = { name, disabled, kind };
          if (kind !== undefined || value !== undefined) {
            change.value = channelValueOf(kind ?? channel.kind, value ?? channel.value);
            await assertChannelMembers(channel.projectId, kind ?? channel.kind, change.value, channel._id);
          }
          const unconfirmed = change.value !== undefined ? unconfirmedAfter(channel, kind ?? channel.kind, change.value) : (channel.unconfirmed ?? []);
          await allowConfirmations(req, limits.confirm, newAddresses(channel, { unconfirmed, disabled: disabled ?? channel.disabled }));
          const updated = await updateChannel(channel, change);
          mailInBackground(web, updated, newAddresses(channel, updated), deps.clock());
          res.json(presentChannelSettings(updated));
        },
      ],
      DELETE: [
        requireKey('write'),
        async (req, res) => {
          const channel = await channelOf(authOf(req).project, String(req.params.id));
          res.json(presentChannelSettings(await deleteChannel(channel._id)));
        },
      ],
    },
    uuidPath,
  );
  return router;
}
