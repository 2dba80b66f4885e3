/**
 * `integrations/`: channels created, listed with their settings, updated and deleted through the API (issue "The web app, part 2", item 4; an
 * extension). Beside `channels/`, which stays exactly the reference's (GET only, behaviour.md §3.4). Read-write keys only.
 */
import { Router, type RequestHandler } from 'express';
import { endpoint } from '../middleware/endpoint.js';
import { authOf, requireKey } from '../middleware/auth.js';
import { parseJsonBody } from '../middleware/body.js';
import { parseBody } from '../schemas/parse.js';
import { channelSchema, newChannelSchema } from '../schemas/channel.js';
import { presentChannelSettings } from '../presenters/channel.js';
import { assertChannelMembers, channelOf, channelValueOf } from '../services/channels.js';
import { Channel, type ChannelDoc } from '../../shared/models/channel.js';
import { createChannel, deleteChannel, updateChannel, type ChannelChange } from '../../shared/services/channels.js';
import { UUID_RE } from '../../shared/domain/ids.js';
import { AppError, notFound } from '../../shared/errors.js';

/** 404 for a malformed `:id`, before the method counts. */
const uuidPath: RequestHandler = (req, _res, next) => (UUID_RE.test(String(req.params.id)) ? next() : next(notFound()));

/** The `integrations/` routes, relative to `/api/v<N>`. */
export function integrationsRouter(): Router {
  const router = Router({ strict: true, caseSensitive: true });
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
        const channel = await createChannel({ projectId, kind: input.kind!, name: input.name ?? '', value });
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
          res.json(presentChannelSettings(await updateChannel(channel, change)));
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
