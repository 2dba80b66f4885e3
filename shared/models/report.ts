/**
 * One report or reminder mail of one user for one period (docs/reports.md), unique per (user, kind, period start): the exactly-once guard of
 * sending it, as a notification is for an alert. `state`: `sending` (a worker holds the claim until `leaseUntil`) → `sent`, or `skipped` when there
 * was nothing to send by then (no check down, the setting turned off, the user gone).
 */
import mongoose, { Schema } from 'mongoose';

/** Which mail: the periodic report or the reminder while a check is down. */
export type ReportKind = 'report' | 'reminder';
/** Where the mail stands. */
export type ReportState = 'sending' | 'sent' | 'skipped';

/** A report record as stored. */
export interface ReportDoc {
  /** `<userId>-<kind>-<period start, epoch ms>`: the unique key. */
  _id: string;
  userId: string;
  kind: ReportKind;
  /** The setting it was sent under: `daily`, `weekly`, `monthly` (report) or `hourly`, `daily` (reminder). */
  every: string;
  /** A report's covered period; a reminder's period is the one it is sent in. */
  periodStart: Date;
  periodEnd: Date;
  state: ReportState;
  /** Token of the attempt holding the claim while `sending`. */
  claimToken: string;
  /** While `sending`: until when that attempt may still run; after it, another worker takes the mail over. */
  leaseUntil: Date;
  /** Attempts that claimed it, one interrupted by a killed worker included. */
  attempts: number;
  created: Date;
  /** When the relay accepted the mail (or it was skipped). */
  finished: Date | null;
}

const reportSchema = new Schema<ReportDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    kind: { type: String, enum: ['report', 'reminder'], required: true },
    every: { type: String, required: true },
    periodStart: { type: Date, required: true },
    periodEnd: { type: Date, required: true },
    state: { type: String, enum: ['sending', 'sent', 'skipped'], required: true },
    claimToken: { type: String, required: true },
    leaseUntil: { type: Date, required: true },
    attempts: { type: Number, default: 1 },
    created: { type: Date, required: true },
    finished: { type: Date, default: null },
  },
  { versionKey: false },
);
reportSchema.index({ userId: 1, kind: 1, periodStart: 1 }, { unique: true });
// The retry pass: claims whose worker stopped.
reportSchema.index({ state: 1, leaseUntil: 1 });

/** The `reports` collection. */
export const Report = mongoose.model<ReportDoc>('Report', reportSchema);
