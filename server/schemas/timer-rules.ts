/**
 * Payload keys of the timed alerting rules (docs/alerting-rules.md), spread into the check payload schema (server/schemas/check.ts): `notify_late`
 * and `repeat_every`. Messages are the API's usual ones (server/schemas/parse.ts).
 */
import Joi from 'joi';

/** Upper bound of a rule's seconds, as for `timeout` and `grace` (docs/api-reference.md, "Validation"). */
const MAX_PERIOD_SECONDS = 31_536_000;

/** Least `repeat_every`, seconds: a reminder at most every five minutes. */
export const MIN_REPEAT_SECONDS = 300;

/** The rules' payload fields; `repeat_every: null` turns reminders off. */
export interface TimerRuleInput {
  notify_late?: boolean;
  /** Seconds, an integer in [{@link MIN_REPEAT_SECONDS}, 31536000], or null. */
  repeat_every?: number | null;
}

/** An integral JSON number of seconds in [min, 31536000]: `not a number`, `too small` or `too large` otherwise. */
export function wholeSeconds(min: number): Joi.NumberSchema {
  return Joi.number()
    .strict()
    .integer()
    .min(min)
    .max(MAX_PERIOD_SECONDS)
    .messages({ 'number.base': '{{#label}} is not a number', 'number.integer': '{{#label}} is not a number', 'number.infinity': '{{#label}} is not a number' })
    .messages({ 'number.min': '{{#label}} is too small', 'number.max': '{{#label}} is too large' });
}

/** The rules' keys of the check payload schema. */
export const timerRuleKeys = {
  notify_late: Joi.boolean(),
  repeat_every: wholeSeconds(MIN_REPEAT_SECONDS).allow(null),
};
