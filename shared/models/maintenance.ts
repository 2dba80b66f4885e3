/**
 * A maintenance window (docs/alerting-rules.md): while one is active, the checks it covers keep their status and record their flips, marked, and
 * send nothing; a check still down when it ends alerts once then (shared/domain/maintenance.ts, shared/alerts/outbox.ts). Either one-off (`start`
 * to `end`) or recurring (a cron or OnCalendar `schedule` in `tz`, each occurrence lasting `duration` seconds).
 */
import mongoose, { Schema } from 'mongoose';

/** A maintenance window as stored. */
export interface MaintenanceDoc {
  /** The window's UUID. */
  _id: string;
  projectId: string;
  name: string;
  /** One-off window: from `start` (inclusive) to `end` (exclusive); null for a recurring one. */
  start: Date | null;
  end: Date | null;
  /** Recurring window: a cron expression in `tz`; `""` for a one-off one. */
  schedule: string;
  tz: string;
  /** Recurring window: how long each occurrence lasts, seconds; 0 for a one-off one. */
  duration: number;
  /** Covers every check of the project (`"checks": "*"`). */
  allChecks: boolean;
  /** Covers these check UUIDs. */
  checkIds: string[];
  /** Covers checks with any of these tags. */
  tags: string[];
  created: Date;
}

const maintenanceSchema = new Schema<MaintenanceDoc>(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    name: { type: String, default: '' },
    start: { type: Date, default: null },
    end: { type: Date, default: null },
    schedule: { type: String, default: '' },
    tz: { type: String, default: 'UTC' },
    duration: { type: Number, default: 0 },
    allChecks: { type: Boolean, default: false },
    checkIds: { type: [String], default: [] },
    tags: { type: [String], default: [] },
    created: { type: Date, required: true },
  },
  { versionKey: false },
);
maintenanceSchema.index({ projectId: 1, created: 1 });

/** The `maintenance` collection. */
export const Maintenance = mongoose.model<MaintenanceDoc>('Maintenance', maintenanceSchema, 'maintenance');
