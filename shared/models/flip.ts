/**
 * A recorded status change (docs/checks.md, "Flips"); the API lists only changes into `up` or `down`. Inserted by the
 * completion of its check's outbox entry (shared/alerts/outbox.ts), after its notifications exist.
 */
import mongoose, { Schema } from 'mongoose';
import type { FlipReason, StoredStatus } from './check.js';
import { marksField, type FlipMark } from './check-rules.js';


/** A flip as stored. */
export interface FlipDoc {
  checkId: string;
  /** When the status changed: for a missed deadline, the computed going-down moment. */
  created: Date;
  /** When the flip was written (for measuring deadline lateness). */
  recorded: Date;
  /** When the flip was inserted with its notifications already written (the outbox completion). */
  processed: Date | null;
  oldStatus: StoredStatus;
  newStatus: StoredStatus;
  reason: FlipReason;
  /** Why an alerting rule raised or held back its alerts; absent when none played a part. */
  marks?: FlipMark[];
  /** Recorded while a maintenance window covered the check: its alerts were held back. Absent otherwise. */
  maintenance?: boolean;
}

const flipSchema = new Schema<FlipDoc>(
  {
    checkId: { type: String, required: true },
    created: { type: Date, required: true },
    recorded: { type: Date, required: true },
    processed: { type: Date, default: null },
    oldStatus: { type: String, required: true },
    newStatus: { type: String, required: true },
    reason: { type: String, default: '' },
    marks: marksField,
    maintenance: { type: Boolean },
  },
  { versionKey: false },
);
flipSchema.index({ checkId: 1, created: -1 });

/** The `flips` collection. */
export const Flip = mongoose.model<FlipDoc>('Flip', flipSchema);
