/**
 * A check's alerting rules and the state they keep (docs/alerting-rules.md). Every field is absent (or null) on a check without rules,
 * so such a check stores, reads and serialises exactly as before.
 */
import { Schema } from 'mongoose';
/**
 * Why a rule raised or held back an alert: the n-th failure, a run too short, a success too soon, a parent down (held back), and `released`: the
 * held-back alert sent once its parents were all up again.
 */
export type FlipMark = 'threshold' | 'too_fast' | 'too_often' | 'parent_down' | 'released';

/** A down alert held back while a parent is down (shared/alerts/dependencies.ts): the flip it belongs to. */
export interface HeldAlert {
  /** The held flip's id (its outbox entry's `_id`). */
  flipId: string;
  /** When the check went down. */
  at: Date;
  /** The flip's reason (a `FlipReason`). */
  reason: '' | 'timeout' | 'fail';
  marks: FlipMark[];
}

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
  /** UUIDs of checks of the same project this check depends on: while one is down, its down alerts are held back. */
  dependsOn?: string[] | null;
  /** The down alert held back while a parent is down, sent when they are all up again; null when none. */
  held?: HeldAlert | null;
}

/** Mongoose paths of {@link CheckRules}: no defaults, so nothing is stored for a check without rules. */
export const checkRuleFields = {
  failThreshold: { type: Number, default: undefined },
  failWindow: { type: Number, default: undefined },
  minDuration: { type: Number, default: undefined },
  minInterval: { type: Number, default: undefined },
  failRun: { type: [Date], default: undefined },
  lastSuccess: { type: Date, default: undefined },
  dependsOn: { type: [String], default: undefined },
  held: { type: Schema.Types.Mixed, default: undefined },
} satisfies Record<keyof CheckRules, { type: unknown; default: undefined }>;

/** Schema of the `marks` of a flip or notification: absent unless a rule played a part. */
export const marksField = { type: [String], default: undefined } as const;
