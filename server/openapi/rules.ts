/** JSON Schemas of the alerting-rule members (docs/alerting-rules.md): in the check (only when set) and in its payload. */

const MAX_SECONDS = 31_536_000;

/** An integer member's schema (plain data: server/openapi/schemas.ts spreads it). */
type IntegerSchema = { type: string; minimum: number; maximum: number; description: string };

/** Rule members of the check JSON; each present only when the rule is set. */
export const checkRuleFields: Record<string, IntegerSchema> = {
  fail_threshold: {
    type: 'integer', minimum: 1, maximum: 100,
    description: 'Alerting rule: a failure (`/fail`, non-zero exit status, failure keyword) flips the check down only as the n-th in a row (or within `fail_window`). A missed deadline still flips it at once.',
  },
  fail_window: { type: 'integer', minimum: 1, maximum: MAX_SECONDS, description: 'Alerting rule, seconds: count failures within this window instead of in a row.' },
  min_duration: { type: 'integer', minimum: 0, maximum: MAX_SECONDS, description: 'Alerting rule, seconds: a success whose run (measured from its start) is shorter is a failure, "ran too fast".' },
  min_interval: { type: 'integer', minimum: 0, maximum: MAX_SECONDS, description: 'Alerting rule, seconds: a success sooner than this after the previous success is a failure, "ran too often".' },
};

/** Rule members of the create/update payload: as in the check, or `null` to turn the rule off. */
export const checkRuleInputFields: Record<string, Omit<IntegerSchema, 'type'> & { type: string[] }> = Object.fromEntries(
  Object.entries(checkRuleFields).map(([key, schema]) => [key, { ...schema, type: [schema.type, 'null'], description: `${schema.description} \`null\` turns it off.` }]),
);

/** `depends_on`, in the check (read-write keys, only when set) and in the payload (`null` or `[]` clears it). */
export const dependsOnField = {
  type: 'array',
  maxItems: 100,
  items: { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' },
  description:
    'Alerting rule: UUIDs of checks of the same project (not itself, no cycles). While one is down, this check\'s down alerts are held back ' +
    '(logged with reason `parent down`); if it is still down when they are all up, it alerts then. Recovery alerts are never held.',
};

/** `depends_on` in the payload. */
export const dependsOnInputField = { ...dependsOnField, type: ['array', 'null'] };

/** The notification log's `reason` member. */
export const notificationReasonField = {
  type: 'string',
  description: 'Why an alerting rule raised or held back the alert, e.g. `threshold reached`, `ran too fast`, `ran too often`, `parent down` (`; `-separated); only when a rule played a part.',
};
