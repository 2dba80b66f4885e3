/** The alerting-rule members of the check JSON (docs/alerting-rules.md): each only when set, so a check without rules shows its usual keys. */
import type { CheckDoc } from '../../shared/models/check.js';

/** Rule members, in the API's names; durations in seconds. */
export interface CheckRulesJson {
  fail_threshold?: number;
  fail_window?: number;
  min_duration?: number;
  min_interval?: number;
  /** Parent check UUIDs; read-write keys only, as `uuid`. */
  depends_on?: string[];
}

/** The members of the rules `check` has set (none for a check without rules); a read-only key does not see UUIDs (docs/api-reference.md, "Check object"). */
export function presentRules(check: CheckDoc, readOnly: boolean): CheckRulesJson {
  const json: CheckRulesJson = {};
  if (check.failThreshold != null) json.fail_threshold = check.failThreshold;
  if (check.failWindow != null) json.fail_window = check.failWindow;
  if (check.minDuration != null) json.min_duration = check.minDuration;
  if (check.minInterval != null) json.min_interval = check.minInterval;
  if (!readOnly && check.dependsOn?.length) json.depends_on = [...check.dependsOn];
  return json;
}
