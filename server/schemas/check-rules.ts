/**
 * The alerting-rule fields of the create/update check payload (docs/alerting-rules.md). All optional; `null` turns a rule off. They
 * come after the reference's fields, so a payload with a bad reference field reports that error first (docs/api-reference.md, "Validation").
 */
import Joi from 'joi';
import { MAX_RULE_SECONDS } from '../../shared/domain/rules.js';

/** The rule fields of a validated payload, in the API's names; absent: unchanged, null: rule off. */
export interface CheckRulesInput {
  /** 1–100. */
  fail_threshold?: number | null;
  /** Seconds, at least 1. */
  fail_window?: number | null;
  /** Seconds. */
  min_duration?: number | null;
  /** Seconds. */
  min_interval?: number | null;
  /** Check UUIDs of the same project (checked by the service: server/services/check-rules.ts). */
  depends_on?: string[] | null;
}

/** Most parents a check may have. */
export const MAX_PARENTS = 100;

/** A whole number of seconds from `min` up to a year; strict (no strings, no booleans). */
const seconds = (min: number): Joi.NumberSchema => Joi.number().integer().min(min).max(MAX_RULE_SECONDS).allow(null);

/** Joi keys of {@link CheckRulesInput}, spread at the end of the check payload's schema. */
export const checkRuleKeys = {
  fail_threshold: Joi.number().integer().min(1).max(100).allow(null),
  fail_window: seconds(1),
  min_duration: seconds(0),
  min_interval: seconds(0),
  depends_on: Joi.array().items(Joi.string().pattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)).max(MAX_PARENTS).allow(null),
};

/** Messages of the `number.*` codes the rule fields raise, in the API's `json validation error: <field> <problem>` style. */
export const ruleMessages: Record<string, string> = {
  'number.base': '{{#label}} is not a number',
  'number.integer': '{{#label}} is not an integer',
  'number.unsafe': '{{#label}} is too large',
  'number.min': '{{#label}} is too small',
  'number.max': '{{#label}} is too large',
  'array.max': '{{#label}} is too long',
};
