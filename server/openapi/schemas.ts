/**
 * JSON Schemas (2020-12) of the Management API's objects (docs/api-reference.md, "Check object", "Ping object", "Integration object", "Status codes", "Validation", "Badges").
 * Responses are closed, so validating real responses catches a field the description lacks.
 */
import { checkRuleFields, checkRuleInputFields, dependsOnField, dependsOnInputField, notificationReasonField } from './rules.js';
import { timerReasonField, timerRuleFields, timerRuleInputFields } from './timer-rules.js';

/** A JSON value as the description holds it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: { [key: string]: Json }): Json => ({ ...schema, type: [schema.type, 'null'] });

/** Canonical lowercase UUID (docs/api-reference.md, "Paths and versions"). */
export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
/** A check's `unique_key`: 40 lowercase hex characters (docs/api-reference.md, "unique_key"). */
export const UNIQUE_KEY_PATTERN = '^[0-9a-f]{40}$';

/** A time truncated to seconds with a `+00:00` offset (docs/api-reference.md, "Times"). */
const isoSeconds = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\+00:00$' };
/** A time with six fractional digits and a `+00:00` offset (docs/api-reference.md, "Times"). */
const isoMicros = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}\\+00:00$' };
const url = { type: 'string', format: 'uri' };
const seconds = (description: string): Json => ({ type: 'integer', minimum: 0, description });

const checkFields: { [key: string]: Json } = {
  name: { type: 'string' },
  slug: { type: 'string' },
  tags: { type: 'string', description: 'Space-separated tags.' },
  desc: { type: 'string' },
  grace: seconds('Grace period, seconds.'),
  n_pings: { type: 'integer', minimum: 0 },
  status: { enum: ['new', 'up', 'grace', 'down', 'paused'], description: 'Live status (docs/checks.md, "Status").' },
  started: { type: 'boolean', description: 'A run is in progress.' },
  last_ping: nullable(isoSeconds),
  next_ping: nullable(isoSeconds),
  manual_resume: { type: 'boolean' },
  methods: { enum: ['', 'POST'] },
  subject: { type: 'string', deprecated: true },
  subject_fail: { type: 'string', deprecated: true },
  start_kw: { type: 'string' },
  success_kw: { type: 'string' },
  failure_kw: { type: 'string' },
  filter_subject: { type: 'boolean' },
  filter_body: { type: 'boolean' },
  filter_http_body: { type: 'boolean' },
  filter_default_fail: { type: 'boolean' },
  badge_url: url,
  last_duration: seconds('Whole seconds of the last run; only when known and not zero.'),
};

/** Members only a read-write key sees (docs/api-reference.md, "Check object"). */
const readWriteFields: { [key: string]: Json } = {
  uuid: { type: 'string', pattern: UUID_PATTERN },
  ping_url: url,
  update_url: url,
  pause_url: url,
  resume_url: url,
  channels: { type: 'string', description: 'Assigned integration UUIDs, sorted, comma-separated.' },
};

/** Strings of at most `limit` characters (code points, docs/api-reference.md, "Validation"). */
const text = (limit?: number): Json => (limit === undefined ? { type: 'string' } : { type: 'string', maxLength: limit });
const period = { type: 'integer', minimum: 60, maximum: 31_536_000, description: 'Seconds.' };

/** The `components.schemas` of the description. */
export const schemas: { [key: string]: Json } = {
  Check: {
    description: 'A check (docs/api-reference.md, "Check object"). A read-only key hides the UUID and URLs and adds `unique_key`.',
    allOf: [
      { type: 'object', required: Object.keys(checkFields).filter((key) => key !== 'last_duration'), properties: { ...checkFields, ...checkRuleFields, depends_on: dependsOnField, ...timerRuleFields } },
      { oneOf: [ref('CheckReadWriteMembers'), ref('CheckReadOnlyMembers')] },
      { oneOf: [ref('SimpleCheckMembers'), ref('CronCheckMembers')] },
    ],
    unevaluatedProperties: false,
  },
  CheckReadWriteMembers: { type: 'object', required: Object.keys(readWriteFields), properties: readWriteFields },
  CheckReadOnlyMembers: { type: 'object', required: ['unique_key'], properties: { unique_key: { type: 'string', pattern: UNIQUE_KEY_PATTERN } } },
  SimpleCheckMembers: { type: 'object', required: ['timeout'], properties: { timeout: seconds('Period, seconds.') } },
  CronCheckMembers: {
    type: 'object',
    required: ['schedule', 'tz'],
    properties: { schedule: { type: 'string' }, tz: { type: 'string' } },
  },
  CheckList: { type: 'object', required: ['checks'], properties: { checks: { type: 'array', items: ref('Check') } }, additionalProperties: false },
  Ping: {
    type: 'object',
    description: 'A ping log entry (docs/api-reference.md, "Ping object").',
    required: ['type', 'date', 'n', 'scheme', 'remote_addr', 'method', 'ua', 'rid', 'body_url'],
    properties: {
      type: { enum: ['success', 'start', 'fail', 'log', 'ign'] },
      date: isoMicros,
      n: { type: 'integer', minimum: 1 },
      scheme: { type: 'string' },
      remote_addr: { type: ['string', 'null'] },
      method: { type: 'string' },
      ua: { type: 'string', maxLength: 200 },
      rid: { type: ['string', 'null'], pattern: UUID_PATTERN },
      body_url: nullable(url),
      duration: { type: 'number', minimum: 0, description: 'Seconds, 2 decimals; completions paired with a start only.' },
      exitstatus: { type: ['integer', 'null'], minimum: 0, maximum: 255, description: 'Only with `?exitstatus=1`.' },
    },
    additionalProperties: false,
  },
  PingList: { type: 'object', required: ['pings'], properties: { pings: { type: 'array', items: ref('Ping') } }, additionalProperties: false },
  Flip: {
    type: 'object',
    description: 'A status change (docs/api-reference.md, "Flip object").',
    required: ['timestamp', 'up'],
    properties: { timestamp: isoSeconds, up: { enum: [0, 1] } },
    additionalProperties: false,
  },
  Channel: {
    type: 'object',
    description: 'An integration (docs/api-reference.md, "Integration object").',
    required: ['id', 'name', 'kind'],
    properties: { id: { type: 'string', pattern: UUID_PATTERN }, name: { type: 'string' }, kind: { type: 'string' } },
    additionalProperties: false,
  },
  ChannelList: { type: 'object', required: ['channels'], properties: { channels: { type: 'array', items: ref('Channel') } }, additionalProperties: false },
  ChannelInput: {
    type: 'object',
    description: 'A channel to create or change. `value`: the kind\'s main setting as text (an address, a URL), or its settings as an object; every kind also takes `up` and `down` booleans.',
    properties: {
      kind: { type: 'string', description: 'One of the kinds docs/alerts.md lists.' },
      name: { type: 'string', maxLength: 100 },
      value: { anyOf: [{ type: 'string' }, { type: 'object' }] },
      disabled: { type: 'boolean' },
    },
  },
  ChannelSettings: {
    type: 'object',
    description: 'An integration with its settings (defaults filled in, secrets masked: credentials as `…` and their last 4 characters, URLs as scheme and host, header values), its state and last delivery.',
    required: ['id', 'name', 'kind', 'settings', 'disabled', 'unconfirmed', 'last_error', 'last_notify'],
    properties: {
      id: { type: 'string', pattern: UUID_PATTERN }, name: { type: 'string' }, kind: { type: 'string' },
      settings: { type: ['object', 'null'], description: 'Null when the stored value no longer parses.' },
      disabled: { type: 'boolean' },
      unconfirmed: { type: 'array', items: { type: 'string' }, description: "An email integration's addresses whose owner has not confirmed them yet: no alert goes to them." },
      last_error: { type: 'string' }, last_notify: nullable(isoSeconds),
    },
    additionalProperties: false,
  },
  IntegrationList: {
    type: 'object', required: ['integrations'], properties: { integrations: { type: 'array', items: ref('ChannelSettings') } }, additionalProperties: false,
  },
  Notification: {
    type: 'object',
    description: "One alert of one flip through one channel (an extension: the reference has no notification log). `outcome`: `delivered`; `failed` (no attempt left, or a final refusal); `skipped` (never sent: channel disabled or deleted, check paused or deleted); `pending` (waiting for its first attempt or a retry); `sending`.",
    required: ['status', 'flip_timestamp', 'channel', 'channel_id', 'created', 'outcome', 'delivered', 'attempts', 'error'],
    properties: {
      status: { enum: ['up', 'down', 'late'], description: 'The flip\'s direction; `late` for a late warning (alerting rule `notify_late`).' },
      flip_timestamp: isoSeconds,
      channel: { anyOf: [ref('Channel'), { type: 'null' }], description: 'The channel as it is now; null once deleted.' },
      channel_id: { type: 'string', pattern: UUID_PATTERN },
      created: isoSeconds,
      outcome: { enum: ['delivered', 'failed', 'skipped', 'pending', 'sending'] },
      delivered: nullable(isoSeconds),
      attempts: { type: 'integer', minimum: 0, description: 'Attempts made, failed and interrupted ones included.' },
      error: { type: 'string', description: "The last attempt's error (the provider's answer) or why it was skipped; empty when delivered or not tried yet." },
      reason: { type: 'string', description: `${notificationReasonField.description} ${timerReasonField.description}` },
    },
    additionalProperties: false,
  },
  NotificationList: {
    type: 'object', required: ['notifications'], properties: { notifications: { type: 'array', items: ref('Notification') } }, additionalProperties: false,
  },
  BadgeUrls: {
    type: 'object',
    required: ['svg', 'svg3', 'json', 'json3', 'shields', 'shields3'],
    properties: { svg: url, svg3: url, json: url, json3: url, shields: url, shields3: url },
    additionalProperties: false,
  },
  BadgeList: {
    type: 'object',
    required: ['badges'],
    properties: { badges: { type: 'object', required: ['*'], additionalProperties: ref('BadgeUrls') } },
    additionalProperties: false,
  },
  Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } }, additionalProperties: false },
  CheckInput: {
    type: 'object',
    description:
      'Create or update payload (docs/api-reference.md, "Validation"). Types are strict and `null` is invalid; on update, absent members are left unchanged. ' +
      'A non-empty `schedule` makes a cron check (one line of 5 fields) or an OnCalendar check (anything else), else `timeout` a simple one. Unknown members are ignored.',
    properties: {
      api_key: { type: 'string', description: 'The API key, when no `X-Api-Key` header is sent.' },
      name: text(100),
      slug: { type: 'string', maxLength: 100, pattern: '^[a-z0-9-_]*$' },
      tags: text(),
      desc: text(),
      timeout: period,
      grace: period,
      schedule: { type: 'string', minLength: 1, maxLength: 100, description: 'A 5-field cron expression, or systemd OnCalendar expressions (one per line).' },
      tz: { type: 'string', description: 'An IANA (or legacy) time zone name.' },
      manual_resume: { type: 'boolean' },
      methods: { enum: ['', 'POST'] },
      channels: { type: 'string', description: '`*` for all, `""` for none, or comma-separated integration UUIDs or names.' },
      filter_subject: { type: 'boolean' },
      filter_body: { type: 'boolean' },
      filter_http_body: { type: 'boolean' },
      filter_default_fail: { type: 'boolean' },
      start_kw: text(200),
      success_kw: text(200),
      failure_kw: text(200),
      subject: { type: 'string', maxLength: 200, deprecated: true },
      subject_fail: { type: 'string', maxLength: 200, deprecated: true },
      unique: {
        type: 'array',
        items: { enum: ['name', 'slug', 'tags', 'timeout', 'grace'] },
        description: 'Create only: fields an existing check must match to be updated instead (200).',
      },
      ...checkRuleInputFields,
      depends_on: dependsOnInputField,
      ...timerRuleInputFields,
    },
  },
};
