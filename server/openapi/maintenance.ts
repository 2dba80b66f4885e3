/** The description of the maintenance window endpoints (docs/alerting-rules.md): paths, schemas and the `window` parameter, merged in document.ts. */
import type { Json } from './schemas.js';

const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const ISO_SECONDS = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\+00:00$' };
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const body = (description: string, name: string): Json => ({ description, content: { 'application/json': { schema: ref(name) } } });
const keyed = { '401': { $ref: '#/components/responses/Unauthorized' } };
const onWindow = { ...keyed, '404': body('No such window in the project (or a malformed UUID).', 'Error') };
const windowParam = { $ref: '#/components/parameters/window' };
const input: Json = { required: true, content: { 'application/json': { schema: ref('MaintenanceInput') } } };
const bad = { '400': { $ref: '#/components/responses/BadRequest' } };

/** `components.parameters` added. */
export const maintenanceParameters: { [key: string]: Json } = {
  window: { name: 'uuid', in: 'path', required: true, description: "The maintenance window's UUID.", schema: { type: 'string', pattern: UUID_PATTERN } },
};

const covered: { [key: string]: Json } = {
  checks: { anyOf: [{ const: '*' }, { type: 'array', items: { type: 'string', pattern: UUID_PATTERN } }], description: '`*` (every check of the project) or check UUIDs.' },
  tags: { type: 'string', description: 'Space-separated tags: covers checks carrying any of them.' },
};

/** `components.schemas` added. */
export const maintenanceSchemas: { [key: string]: Json } = {
  Maintenance: {
    type: 'object',
    description:
      'A maintenance window: one-off (`start`, `end`) or recurring (`schedule` in `tz`, each occurrence `duration` seconds). Covered checks keep their status and record their flips but send nothing; one still down when the window ends alerts once then.',
    required: ['uuid', 'name', 'checks', 'tags', 'active'],
    properties: {
      uuid: { type: 'string', pattern: UUID_PATTERN },
      name: { type: 'string' },
      start: ISO_SECONDS,
      end: ISO_SECONDS,
      schedule: { type: 'string' },
      tz: { type: 'string' },
      duration: { type: 'integer', minimum: 1, description: 'Seconds.' },
      ...covered,
      active: { type: 'boolean', description: 'Whether the window is active now.' },
      active_until: { ...ISO_SECONDS, description: 'When the active occurrence ends; only while active.' },
    },
    additionalProperties: false,
  },
  MaintenanceList: {
    type: 'object', required: ['maintenance'], properties: { maintenance: { type: 'array', items: ref('Maintenance') } }, additionalProperties: false,
  },
  MaintenanceInput: {
    type: 'object',
    description: 'Either `start` and `end` (ISO 8601 with a zone; `end` after `start`), or `schedule` (cron or OnCalendar), `tz` (default UTC) and `duration`; and `checks` and/or `tags`. On update, absent members are left unchanged.',
    properties: {
      name: { type: 'string', maxLength: 100 },
      start: { type: ['string', 'null'] },
      end: { type: ['string', 'null'] },
      schedule: { type: ['string', 'null'], maxLength: 100, description: 'A 5-field cron expression, or systemd OnCalendar expressions (one per line).' },
      tz: { type: 'string' },
      duration: { type: ['integer', 'null'], minimum: 1, description: 'Seconds.' },
      ...covered,
    },
  },
};

/** `paths` added. */
export const maintenancePaths: { [key: string]: Json } = {
  '/maintenance/': {
    get: { operationId: 'listMaintenance', summary: 'List maintenance windows', description: 'Oldest first. Read-only keys allowed. An extension.', responses: { '200': body('The windows.', 'MaintenanceList'), ...keyed } },
    post: { operationId: 'createMaintenance', summary: 'Create a maintenance window', description: 'An extension.', requestBody: input, responses: { '201': body('The window.', 'Maintenance'), ...bad, ...keyed } },
  },
  '/maintenance/{uuid}': {
    get: { operationId: 'getMaintenance', summary: 'Get a maintenance window', description: 'Read-only keys allowed.', parameters: [windowParam], responses: { '200': body('The window.', 'Maintenance'), ...onWindow } },
    post: {
      operationId: 'updateMaintenance', summary: 'Update a maintenance window', description: 'Only the members given change; giving the other kind\'s members switches the kind.',
      parameters: [windowParam], requestBody: input, responses: { '200': body('The window.', 'Maintenance'), ...bad, ...onWindow },
    },
    delete: { operationId: 'deleteMaintenance', summary: 'Delete a maintenance window', parameters: [windowParam], responses: { '200': body('The window as it was.', 'Maintenance'), ...onWindow } },
  },
};
