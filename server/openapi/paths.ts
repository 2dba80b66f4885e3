/**
 * `paths`, `parameters` and `responses` of the v3 description: the endpoints of the seed's Management API summary and
 * docs/api-reference.md, "Endpoints", with the statuses and bodies of docs/api-reference.md, "Status codes"; paths relative to `/api/v3`.
 */
import { UNIQUE_KEY_PATTERN, UUID_PATTERN, type Json } from './schemas.js';

const schema = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const param = (name: string): Json => ({ $ref: `#/components/parameters/${name}` });
const response = (name: string): Json => ({ $ref: `#/components/responses/${name}` });
const json = (description: string, schemaName: string): Json => ({
  description,
  content: { 'application/json': { schema: schema(schemaName) } },
});
const text = (description: string): Json => ({ description, content: { 'text/plain': { schema: { type: 'string' } } } });

/** Responses of every operation that needs a key. */
const keyed = { '401': response('Unauthorized') };
/** Responses of every operation on one check. */
const onCheck = { ...keyed, '403': response('OtherProject'), '404': response('NotFound') };
const checkBody: Json = { required: false, content: { 'application/json': { schema: schema('CheckInput') } } };
const channelBody: Json = { required: true, content: { 'application/json': { schema: schema('ChannelInput') } } };
/** Responses of every operation on one channel. */
const onChannel = { ...keyed, '403': json('The channel belongs to another project.', 'Error'), '404': json('No such channel.', 'Error') };
/** The `components.parameters`. */
export const parameters: { [key: string]: Json } = {
  uuid: { name: 'uuid', in: 'path', required: true, description: "The check's UUID, lowercase.", schema: { type: 'string', pattern: UUID_PATTERN } },
  code: {
    name: 'code', in: 'path', required: true, description: "The check's UUID, or its `unique_key` (which read-only keys see).",
    schema: { anyOf: [{ type: 'string', pattern: UUID_PATTERN }, { type: 'string', pattern: UNIQUE_KEY_PATTERN }] },
  },
  codeUuid: { name: 'code', in: 'path', required: true, description: "The check's UUID, lowercase.", schema: { type: 'string', pattern: UUID_PATTERN } },
  n: { name: 'n', in: 'path', required: true, description: "The ping's number.", schema: { type: 'integer', minimum: 0 } },
  tag: {
    name: 'tag', in: 'query', required: false, style: 'form', explode: true,
    description: 'Only checks carrying every given tag.', schema: { type: 'array', items: { type: 'string' } },
  },
  slug: { name: 'slug', in: 'query', required: false, description: 'Only checks with this slug.', schema: { type: 'string' } },
  flipsSeconds: { name: 'seconds', in: 'query', required: false, description: 'Flips of the last N seconds.', schema: { type: 'integer', minimum: 0, maximum: 31_536_000 } },
  flipsStart: { name: 'start', in: 'query', required: false, description: 'Flips at or after this UNIX time.', schema: { type: 'integer', minimum: 0, maximum: 10_000_000_000 } },
  pingsExitStatus: {
    name: 'exitstatus', in: 'query', required: false,
    description: "`1` adds each ping's `exitstatus` (0–255 or null). An extension of this service; the reference does not expose it.",
    schema: { type: 'string', enum: ['1'] },
  },
  channel: { name: 'channel', in: 'path', required: true, description: "The channel's UUID.", schema: { type: 'string', pattern: UUID_PATTERN } },
  flipsEnd: { name: 'end', in: 'query', required: false, description: 'Flips before this UNIX time.', schema: { type: 'integer', minimum: 0, maximum: 10_000_000_000 } },
};

/** The `components.responses`. */
export const responses: { [key: string]: Json } = {
  BadRequest: json('Unparsable body or a validation error, e.g. `json validation error: grace is too small`.', 'Error'),
  Unauthorized: json('`missing api key` or `wrong api key` (a read-only key on a write endpoint too).', 'Error'),
  OtherProject: { description: 'The check belongs to another project; empty body.' },
  NotFound: json('No such check (or ping body).', 'Error'),
  Check: json('The check.', 'Check'),
};

/** The `paths`. */
export const paths: { [key: string]: Json } = {
  '/checks/': {
    get: {
      operationId: 'listChecks', summary: 'List checks', description: 'In creation order. Read-only keys allowed.',
      parameters: [param('tag'), param('slug')],
      responses: { '200': json('The checks.', 'CheckList'), '400': response('BadRequest'), ...keyed },
    },
    post: {
      operationId: 'createCheck', summary: 'Create a check, or update the one `unique` matches',
      requestBody: checkBody,
      responses: {
        '200': json('An existing check matched `unique` and was updated.', 'Check'),
        '201': json('A check was created.', 'Check'),
        '400': response('BadRequest'),
        ...keyed,
        '403': { description: 'The project is at its check limit; empty body.' },
      },
    },
  },
  '/checks/{code}': {
    get: {
      operationId: 'getCheck', summary: 'Get a check by its UUID or unique_key', description: 'Read-only keys allowed.',
      parameters: [param('code')], responses: { '200': response('Check'), ...onCheck },
    },
    post: {
      operationId: 'updateCheck', summary: 'Update a check', description: 'UUID form only (a unique_key gives 405). Only the members given change.',
      parameters: [param('codeUuid')], requestBody: checkBody,
      responses: { '200': response('Check'), '400': response('BadRequest'), ...onCheck },
    },
    delete: {
      operationId: 'deleteCheck', summary: 'Delete a check', description: 'UUID form only. Returns the check as it was just before deletion.',
      parameters: [param('codeUuid')], responses: { '200': response('Check'), ...onCheck },
    },
  },
  '/checks/{uuid}/pause': {
    post: { operationId: 'pauseCheck', summary: 'Pause monitoring of a check', parameters: [param('uuid')], responses: { '200': response('Check'), ...onCheck } },
  },
  '/checks/{uuid}/resume': {
    post: {
      operationId: 'resumeCheck', summary: 'Resume a paused check', parameters: [param('uuid')],
      responses: { '200': response('Check'), ...onCheck, '409': text('The check is not paused: `check is not paused`.') },
    },
  },
  '/checks/{uuid}/pings/': {
    get: {
      operationId: 'listPings', summary: "List a check's pings", description: 'Newest first, at most the ping log limit. Read-write key only.',
      parameters: [param('uuid'), param('pingsExitStatus')], responses: { '200': json('The ping log.', 'PingList'), ...onCheck },
    },
  },
  '/checks/{uuid}/pings/{n}/body': {
    get: {
      operationId: 'getPingBody', summary: "Get a ping's stored body", description: 'The bytes as stored. Read-write key only.',
      parameters: [param('uuid'), param('n')], responses: { '200': text('The body.'), ...onCheck },
    },
  },
  '/checks/{uuid}/notifications/': {
    get: {
      operationId: 'listNotifications', summary: "List the alerts a check's flips caused",
      description: 'Newest first, at most 100, with each delivery\'s outcome and error. Read-write key only. An extension: the reference has no such endpoint.',
      parameters: [param('uuid')], responses: { '200': json('The notification log.', 'NotificationList'), ...onCheck },
    },
  },
  '/checks/{code}/flips/': {
    get: {
      operationId: 'listFlips', summary: "List a check's flips, by its UUID or unique_key",
      description: 'Newest first. A bare JSON array (as Healthchecks documents it; the reference itself sends `{"flips": …}`). Read-only keys allowed.',
      parameters: [param('code'), param('flipsSeconds'), param('flipsStart'), param('flipsEnd')],
      responses: {
        '200': { description: 'The flips.', content: { 'application/json': { schema: { type: 'array', items: schema('Flip') } } } },
        '400': { description: 'A bad `seconds`, `start` or `end`; empty body.' },
        ...onCheck,
      },
    },
  },
  '/channels/': {
    get: { operationId: 'listChannels', summary: 'List integrations', description: 'Read-write key only.', responses: { '200': json('The integrations.', 'ChannelList'), ...keyed } },
  },
  '/integrations/': {
    get: {
      operationId: 'listIntegrations', summary: 'List integrations with their settings',
      description: 'An extension (the reference only has `channels/`). Read-write key only. Settings with secrets masked, state, last delivery.',
      responses: { '200': json('The integrations.', 'IntegrationList'), ...keyed },
    },
    post: {
      operationId: 'createIntegration', summary: 'Create an integration',
      description: 'An extension. Read-write key only. `kind` and `value` required.',
      requestBody: channelBody,
      responses: { '201': json('The integration, settings masked.', 'ChannelSettings'), '400': response('BadRequest'), ...keyed },
    },
  },
  '/integrations/{channel}': {
    get: {
      operationId: 'getIntegration', summary: 'Get an integration with its settings', description: 'An extension. Read-write key only.',
      parameters: [param('channel')], responses: { '200': json('The integration, settings masked.', 'ChannelSettings'), ...onChannel },
    },
    post: {
      operationId: 'updateIntegration', summary: 'Update an integration',
      description: 'An extension. Only the members given change; a new `value` replaces the settings whole, a new `kind` needs its `value`. `disabled: false` re-enables a channel a permanent error disabled.',
      parameters: [param('channel')], requestBody: channelBody,
      responses: { '200': json('The integration, settings masked.', 'ChannelSettings'), '400': response('BadRequest'), ...onChannel },
    },
    delete: {
      operationId: 'deleteIntegration', summary: 'Delete an integration', description: 'An extension. Also unassigns it from every check.',
      parameters: [param('channel')], responses: { '200': json('The deleted integration.', 'ChannelSettings'), ...onChannel },
    },
  },
  '/badges/': {
    get: { operationId: 'listBadges', summary: 'List badge URLs per tag', description: 'One entry per tag, plus `*`.', responses: { '200': json('Badge URLs.', 'BadgeList'), ...keyed } },
  },
  '/status/': {
    get: {
      operationId: 'status', summary: 'Health check', security: [],
      responses: { '200': text('`OK`: MongoDB and Redis answer.'), '503': text('`unavailable`.') },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'openapi', summary: 'This description', security: [],
      responses: { '200': { description: 'OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  },
};
