/**
 * The create/update check payload (docs/api-reference.md, "Validation"): keys in the order the reference reports the first error (rule
 * 4); within a field, type → length/range → pattern/semantics.
 */
import Joi from 'joi';
import { config } from '../../shared/config.js';
import { canonicalTz, isValidSchedule } from '../../shared/domain/schedule.js';
import { checkRuleKeys, type CheckRulesInput } from './check-rules.js';
import { timerRuleKeys, type TimerRuleInput } from './timer-rules.js';

/** Upper bound of `timeout` and `grace`, seconds (docs/api-reference.md, "Validation"). */
export const MAX_PERIOD_SECONDS = 31_536_000;

/** Fields an upsert may match on (docs/api-reference.md, "Upsert"). */
export const UNIQUE_FIELDS = ['name', 'slug', 'tags', 'timeout', 'grace'] as const;

/** One field name allowed in `unique`. */
export type UniqueField = (typeof UNIQUE_FIELDS)[number];

/** A validated create/update payload, in the API's field names. Absent means "leave unchanged". */
export interface CheckInput extends CheckRulesInput, TimerRuleInput {
  channels?: string;
  desc?: string;
  failure_kw?: string;
  filter_subject?: boolean;
  filter_body?: boolean;
  filter_http_body?: boolean;
  filter_default_fail?: boolean;
  /** Seconds. */
  grace?: number;
  manual_resume?: boolean;
  methods?: '' | 'POST';
  name?: string;
  schedule?: string;
  slug?: string;
  start_kw?: string;
  subject?: string;
  subject_fail?: string;
  success_kw?: string;
  tags?: string;
  /** Seconds. */
  timeout?: number;
  /** Canonical IANA name (legacy aliases already rewritten, docs/checks.md, "Time zones"). */
  tz?: string;
  unique?: UniqueField[];
}

/**
 * `timeout`/`grace`: an integral JSON number in [minPeriodSeconds, 31536000]. Not `Joi.number()`: booleans must read
 * "too small" (the reference takes them as 1 and 0) and huge numbers "too large" (docs/api-reference.md, "Validation").
 */
// Joi.extend is typed `any`: the type says what this extension adds.
const withSeconds = Joi.extend({
  type: 'seconds',
  base: Joi.any(),
  validate(value: unknown, helpers: Joi.CustomHelpers) {
    if (typeof value === 'boolean') return { value, errors: helpers.error('seconds.min') };
    if (typeof value !== 'number' || (Number.isFinite(value) && !Number.isInteger(value))) {
      return { value, errors: helpers.error('seconds.base') };
    }
    if (value < config.minPeriodSeconds) return { value, errors: helpers.error('seconds.min') };
    if (value > MAX_PERIOD_SECONDS) return { value, errors: helpers.error('seconds.max') };
    return { value };
  },
}) as Joi.Root & { seconds(): Joi.AnySchema };

/** A rule: at most `limit` Unicode code points, not UTF-16 units (docs/api-reference.md, "Validation"). */
function maxChars(limit: number): Joi.CustomValidator<string> {
  return (value, helpers) => ([...value].length > limit ? helpers.error('string.max', { limit }) : value);
}

/** A string, empty allowed, of at most `limit` code points when given. */
function text(limit?: number): Joi.StringSchema {
  const base = Joi.string().allow('');
  return limit === undefined ? base : base.custom(maxChars(limit));
}

/**
 * Not empty (the `string.empty` message is the schedule error), ≤ 100 code points, then a valid cron expression when
 * one line of 5 fields, else a valid OnCalendar schedule (docs/api-reference.md, "Validation"; docs/api.md, "OnCalendar schedules").
 */
const schedule = Joi.string()
  .custom(maxChars(100))
  .custom((value: string, helpers) => (isValidSchedule(value) ? value : helpers.error('schedule.invalid')));

/** A known or legacy timezone name; `""` is an unknown name too, not the schedule error `string.empty` maps to. */
const tz = Joi.string()
  .custom((value: string, helpers) => canonicalTz(value) ?? helpers.error('tz.invalid'))
  .messages({ 'string.empty': '{{#label}} is not a valid timezone' });

const unique = Joi.array().items(
  Joi.any().custom((value: unknown, helpers) =>
    (UNIQUE_FIELDS as readonly unknown[]).includes(value) ? value : helpers.error('unique.item'),
  ),
);

/** Payload of create (`POST checks/`) and update (`POST checks/<uuid>`). */
export const checkSchema: Joi.ObjectSchema<CheckInput> = Joi.object<CheckInput>({
  channels: Joi.string().allow(''),
  desc: text(),
  failure_kw: text(200),
  filter_subject: Joi.boolean(),
  filter_body: Joi.boolean(),
  filter_http_body: Joi.boolean(),
  filter_default_fail: Joi.boolean(),
  grace: withSeconds.seconds(),
  manual_resume: Joi.boolean(),
  methods: Joi.any().valid('', 'POST'),
  name: text(100),
  schedule,
  slug: text(100).pattern(/^[a-z0-9-_]*$/),
  start_kw: text(200),
  subject: text(200),
  subject_fail: text(200),
  success_kw: text(200),
  tags: text(),
  timeout: withSeconds.seconds(),
  tz,
  unique,
  ...checkRuleKeys,
  ...timerRuleKeys,
});
