/**
 * A check's alerting rules and the state they keep (README "Alerting rules", issue 22). Every field is absent (or null) on a check without rules,
 * so such a check stores, reads and serialises exactly as before.
 */
/** Why a rule raised or held back an alert: the n-th failure, a run too short, a success too soon, a parent down. */
export type FlipMark = 'threshold' | 'too_fast' | 'too_often' | 'parent_down';

/** The rule fields of a check (absent or null: the rule is off). */
export interface CheckRules {
  /** Failures (in a row, or within `failWindow`) that flip the check down; 1 when absent. */
  failThreshold?: number | null;
  /** Seconds: with it, failures count within this window instead of in a row. */
  failWindow?: number | null;
  /** Seconds: a success whose measured run is shorter is a failure ("ran too fast"). */
  minDuration?: number | null;
  /** Seconds: a success sooner than this after the previous success is a failure ("ran too often"). */
  minInterval?: number | null;
  /** Moments of the failures counted toward `failThreshold`, oldest first; kept only below the threshold. */
  failRun?: Date[] | null;
  /** When the last success signal arrived (a "too often" one included); kept only with `minInterval`. */
  lastSuccess?: Date | null;
}

/** Mongoose paths of {@link CheckRules}: no defaults, so nothing is stored for a check without rules. */
export const checkRuleFields = {
  failThreshold: { type: Number, default: undefined },
  failWindow: { type: Number, default: undefined },
  minDuration: { type: Number, default: undefined },
  minInterval: { type: Number, default: undefined },
  failRun: { type: [Date], default: undefined },
  lastSuccess: { type: Date, default: undefined },
} satisfies Record<keyof CheckRules, { type: unknown; default: undefined }>;

/** Schema of the `marks` of a flip or notification: absent unless a rule played a part. */
export const marksField = { type: [String], default: undefined } as const;
