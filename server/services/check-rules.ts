/** From a validated payload's alerting-rule fields to stored check fields (README "Alerting rules"). */
import type { CheckDoc } from '../../shared/models/check.js';
import type { CheckRulesInput } from '../schemas/check-rules.js';

/** Check field of each rule field; `null` is stored as given (the rule off). */
const RULES: Array<[keyof CheckRulesInput, keyof CheckDoc]> = [
  ['fail_threshold', 'failThreshold'],
  ['fail_window', 'failWindow'],
  ['min_duration', 'minDuration'],
  ['min_interval', 'minInterval'],
];

/** The rule fields a payload writes (absent ones left out); a new threshold or window starts the failure count again. */
export function ruleFieldsOf(input: CheckRulesInput): Partial<CheckDoc> {
  const set: Record<string, unknown> = {};
  for (const [from, to] of RULES) if (input[from] !== undefined) set[to] = input[from];
  if (input.fail_threshold !== undefined || input.fail_window !== undefined) set.failRun = null;
  return set;
}
