/** Runs Joi schemas; every Management API validation message (docs/api-reference.md, "Validation") is in this one table. */
import type Joi from 'joi';
import { AppError } from '../../shared/errors.js';
import { ruleMessages } from './check-rules.js';
import { firstTextProblem } from '../../shared/domain/text.js';

/** Joi error code → message; `{{#label}}` is the bare field name; `seconds.*` to `unique.*` are our own codes. */
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
  'any.required': '{{#label}} is missing',
  'alternatives.types': '{{#label}} is not a string or an object',
  'object.base': '{{#label}} is not an object',
  ...ruleMessages,
};

/** Prefix of every payload validation message (docs/api-reference.md, "Validation"). */
export const VALIDATION_PREFIX = 'json validation error: ';

/**
 * Validates a JSON body strictly (docs/api-reference.md, "Validation", "Request bodies"): no coercion, unknown fields ignored, the first error
 * in key order only; returns the value (`tz` made canonical). Then, anywhere in a body the schema accepts, a text no
 * server stores alike (a NUL, a lone surrogate: shared/domain/text.ts) is refused, naming where it is.
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
  const text = firstTextProblem(body);
  if (text) throw new AppError(400, `${VALIDATION_PREFIX}${text.path} ${text.problem}`);
  return result.value;
}

/** Validates `req.query`, converting strings where the schema says so. @throws `bad` when any parameter is invalid. */
export function parseQuery<T>(schema: Joi.ObjectSchema<T>, query: unknown, bad: AppError): T {
  if (firstTextProblem(query)) throw bad;
  const result = schema.validate(query, { convert: true, allowUnknown: true, stripUnknown: true });
  if (result.error) throw bad;
  return result.value;
}
