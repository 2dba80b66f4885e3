/**
 * An incident note of a status page (docs/status-pages.md): a title and dated updates that owners write, open until resolved. Visitors see the
 * open ones and those resolved in the last 90 days, newest first; the page's next incident write deletes older resolved ones.
 */
import mongoose, { Schema } from 'mongoose';

/** Where an incident stands, as each update says. */
export const INCIDENT_STAGES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentStage = (typeof INCIDENT_STAGES)[number];

/** One dated update of an incident. */
export interface IncidentUpdate {
  at: Date;
  stage: IncidentStage;
  text: string;
}

/** An incident as stored. */
export interface IncidentDoc {
  /** The incident's UUID. */
  _id: string;
  pageId: string;
  title: string;
  /** Oldest first. */
  updates: IncidentUpdate[];
  /** When an update said `resolved`; null while open. */
  resolved: Date | null;
  created: Date;
}

const updateSchema = new Schema<IncidentUpdate>({ at: { type: Date, required: true }, stage: { type: String, required: true }, text: { type: String, default: '' } }, { _id: false });

const incidentSchema = new Schema<IncidentDoc>(
  {
    _id: { type: String, required: true },
    pageId: { type: String, required: true },
    title: { type: String, required: true },
    updates: { type: [updateSchema], default: [] },
    resolved: { type: Date, default: null },
    created: { type: Date, required: true },
  },
  { versionKey: false },
);
incidentSchema.index({ pageId: 1, created: -1 });

/** The `incidents` collection. */
export const Incident = mongoose.model<IncidentDoc>('Incident', incidentSchema);
