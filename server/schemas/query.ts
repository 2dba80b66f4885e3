/** Query strings of the list endpoints (docs/api-reference.md, "Endpoints"): a string, or an array for a repeated name. */
import Joi from 'joi';
import { MAX_PERIOD_SECONDS } from './check.js';

/** Filters of `GET checks/`. */
export interface ListChecksQuery {
  /** Every tag a check must carry, as exact tokens. */
  tag: string[];
  /** Exact slug, or undefined for no slug filter (an empty `slug=` is ignored). */
  slug?: string;
}

/** Filters of `GET checks/<uuid>/flips/`, as UNIX seconds. */
export interface FlipsQuery {
  seconds?: number;
  start?: number;
  end?: number;
}

/** The largest accepted `start`/`end`, UNIX seconds (reference: hc/api/forms.py). */
const MAX_TIMESTAMP = 10_000_000_000;

const lastOf = (value: string | string[]): string => (Array.isArray(value) ? value[value.length - 1] : value);

const stringOrList = Joi.alternatives(Joi.string().allow(''), Joi.array().items(Joi.string().allow('')));

/** `tag` (repeatable) and `slug`; a repeated `slug` counts by its last value, as Django's `QueryDict.get`. */
export const listChecksQuerySchema: Joi.ObjectSchema<ListChecksQuery> = Joi.object({
  tag: stringOrList.default([]).custom((value: string | string[]) => [value].flat()),
  slug: stringOrList.custom((value: string | string[]) => lastOf(value) || undefined),
});

/** Digits only (no sign, fraction, exponent), 0…`max` (docs/api-reference.md, "Endpoints", flips); the last repeat counts. */
function unixInteger(max: number): Joi.AlternativesSchema {
  return stringOrList.custom((value: string | string[], helpers) => {
    const digits = lastOf(value);
    if (!/^[0-9]+$/.test(digits) || Number(digits) > max) return helpers.error('any.invalid');
    return Number(digits);
  });
}

/** `seconds`, `start` and `end`; an empty `seconds=` is ignored, an empty `start=`/`end=` is invalid. */
export const flipsQuerySchema: Joi.ObjectSchema<FlipsQuery> = Joi.object({
  seconds: unixInteger(MAX_PERIOD_SECONDS).empty(''),
  start: unixInteger(MAX_TIMESTAMP),
  end: unixInteger(MAX_TIMESTAMP),
});
