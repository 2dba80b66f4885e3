/**
 * A check's timed alerting rules and their state (docs/alerting-rules.md, shared/domain/timer-rules.ts). All absent on a check that never had
 * them, so it is stored, and serialised, as before.
 */
import { Schema } from 'mongoose';

/** The rules' fields of a check. */
export interface CheckTimers {
  /** Rule `notify_late`: a `late` alert when the check enters its grace period. */
  notifyLate?: boolean;
  /** Rule `repeat_every`, seconds: reminders while the check stays down; null when turned off. */
  repeatEvery?: number | null;
  /** The grace start whose `late` alert is owed or sent (one per grace period). */
  lateFor?: Date | null;
  /** While down with `repeatEvery`: when the next reminder is due. */
  remindAt?: Date | null;
  /** Reminders owed since the check last went down. */
  remindN?: number;
  /** A down alert was held back by a maintenance window until then: the deadline job looks again at that moment (shared/domain/maintenance.ts). */
  heldUntil?: Date | null;
}

/** Mongoose paths of {@link CheckTimers}; no defaults, so they stay absent until set. */
export const checkTimerFields = {
  notifyLate: { type: Boolean },
  repeatEvery: { type: Number },
  lateFor: { type: Date },
  remindAt: { type: Date },
  remindN: { type: Number },
  heldUntil: { type: Date },
} as const;

/** Mongoose indexes of the sweep's repair of lost late-warning, reminder and maintenance-end jobs; sparse: most checks have none. */
export function indexCheckTimers(schema: Schema): void {
  schema.index({ notifyLate: 1 }, { sparse: true });
  schema.index({ remindAt: 1 }, { sparse: true });
  schema.index({ heldUntil: 1 }, { sparse: true });
}
