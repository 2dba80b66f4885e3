/**
 * The alerting-rule fields of the check editor (docs/alerting-rules.md, "In the browser"): the form's text ⇄ the API's rule keys
 * (server/schemas/check-rules.ts, timer-rules.ts). Seconds are typed as whole seconds; an empty field turns the rule off.
 */
import type { Request } from 'express';
import type { CheckDoc } from '../../../shared/models/check.js';
import { fieldOf, ticked } from '../kit/forms.js';

/** The rule fields as the page fills them; numbers as typed text (seconds, or a count for the threshold). */
export interface RuleFormValues {
  failThreshold: string;
  failWindow: string;
  minDuration: string;
  minInterval: string;
  repeatEvery: string;
  notifyLate: boolean;
  dependsOn: string[];
}

/** Form name, API key and check field of each numeric rule. */
export const NUMERIC_RULES: ReadonlyArray<[keyof RuleFormValues, string, keyof CheckDoc]> = [
  ['failThreshold', 'fail_threshold', 'failThreshold'],
  ['failWindow', 'fail_window', 'failWindow'],
  ['minDuration', 'min_duration', 'minDuration'],
  ['minInterval', 'min_interval', 'minInterval'],
  ['repeatEvery', 'repeat_every', 'repeatEvery'],
];

const text = (value: unknown): string => (typeof value === 'number' ? String(value) : '');

/** The rule values of a stored check, or of a new one (every rule off). */
export function ruleValuesOf(check: CheckDoc | null): RuleFormValues {
  const values = { notifyLate: check?.notifyLate ?? false, dependsOn: check?.dependsOn ?? [] } as RuleFormValues;
  for (const [name, , field] of NUMERIC_RULES) (values[name] as string) = text(check?.[field]);
  return values;
}

/** The rule values as submitted (`depends_on` may repeat). */
export function submittedRules(req: Request): RuleFormValues {
  const list = (req.body as Record<string, unknown>).depends_on;
  const dependsOn = (Array.isArray(list) ? list : [list]).filter((id): id is string => typeof id === 'string');
  const values = { notifyLate: ticked(req, 'notify_late'), dependsOn } as RuleFormValues;
  for (const [name, key] of NUMERIC_RULES) (values[name] as string) = fieldOf(req, key);
  return values;
}

/** A typed number: `null` when empty (rule off), a number when whole, else the text (the schema then says `not a number`). */
function numberOf(value: string): number | string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  return /^-?\d{1,15}$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * The API rule keys of the form, only those that differ from the stored check, so saving an unchanged form does not
 * restart the failure count (a new `fail_threshold` or `fail_window` does, server/services/check-rules.ts).
 */
export function rulePayloadOf(values: RuleFormValues, check: CheckDoc | null): Record<string, unknown> {
  const stored = ruleValuesOf(check);
  const payload: Record<string, unknown> = {};
  for (const [name, key] of NUMERIC_RULES) if (values[name] !== stored[name]) payload[key] = numberOf(values[name] as string);
  if (values.notifyLate !== stored.notifyLate) payload.notify_late = values.notifyLate;
  if ([...values.dependsOn].sort().join() !== [...stored.dependsOn].sort().join()) payload.depends_on = values.dependsOn.length ? values.dependsOn : null;
  return payload;
}
