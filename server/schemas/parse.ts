/**
 * Running a Joi schema and turning its first error into the API's message.
 * Every Management API validation message is written here, in one table, so
 * the wording of behaviour.md §3.7 lives in one place.
 */
import type Joi from 'joi';
import { AppError } from '../../shared/errors.js';

/**
 * Joi error code → message template. `{{#label}}` is the field name (labels
 * are not wrapped in quotes). The `seconds.*`, `schedule.*`, `tz.*` and
 * `unique.*` codes come from this module's own rules and extension.
 */
export const MESSAGES: Record<string, string> = {
  'string.base': '{{#label}} is not a string',
  'string.max': '{{#label}} is too long',
  'string.pattern.base': '{{#label}} does not match pattern',
  'boolean.base': '{{#label}} is not a boolean',
  'any.only': '{{#label}} has unexpected value',
  'array.base': '{{#label}} is not an array',
  'seconds.base': '{{#label}} is not a number',
  'seconds.min': '{{#label}} is too small',
  'seconds.max': '{{#label}} is too large',
  'string.empty': '{{#label}} is not a valid cron or OnCalendar expression',
  'schedule.invalid': '{{#label}} is not a valid cron or OnCalendar expression',
  'tz.invalid': '{{#label}} is not a valid timezone',
  'unique.item': "an item in 'unique' has unexpected value",
};

/** Prefix of every payload validation message (behaviour.md §3.7). */
export const VALIDATION_PREFIX = 'json validation error: ';

/**
 * Validates a JSON body strictly: no coercion between strings, numbers and
 * booleans, unknown fields ignored, first error only (behaviour.md §3.7, §3.3 rule 4).
 *
 * @param schema - An object schema whose keys are in the order errors are reported.
 * @param body - The parsed request body.
 * @returns The validated value (for example `tz` rewritten to its canonical name).
 * @throws AppError(400) `json validation error: <field> <problem>`.
 */
export function parseBody<T>(schema: Joi.ObjectSchema<T>, body: unknown): T {
  const result = schema.validate(body, {
    abortEarly: true,
    convert: false,
    allowUnknown: true,
    errors: { wrap: { label: false } },
    messages: MESSAGES,
  });
  if (result.error) throw new AppError(400, VALIDATION_PREFIX + result.error.details[0].message);
  return result.value;
}

/**
 * Validates query parameters, converting strings where the schema says so.
 *
 * @param schema - An object schema for the query.
 * @param query - `req.query` as parsed by Express (strings and string arrays).
 * @param bad - The error to throw when the query is invalid.
 * @throws `bad` when any parameter is invalid.
 */
export function parseQuery<T>(schema: Joi.ObjectSchema<T>, query: unknown, bad: AppError): T {
  const result = schema.validate(query, { convert: true, allowUnknown: true, stripUnknown: true });
  if (result.error) throw bad;
  return result.value;
}
