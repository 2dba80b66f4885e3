/** An integration ("channel", docs/api-reference.md, "Integration object"); `value` is the kind's settings, plain text or a JSON document. */
import mongoose, { Schema } from 'mongoose';

/** A channel as stored. */
export interface ChannelDoc {
  _id: string;
  projectId: string;
  name: string;
  kind: string;
  value: string;
  created: Date;
  /** Set by a permanent delivery error (docs/alerts.md, "Retries and delivery guarantee"); a disabled channel gets no alerts. */
  disabled: boolean;
  /** Error text of the last delivery attempt; `""` after a success. */
  lastError: string;
  /** When the last delivery attempt finished, or null. */
  lastNotify: Date | null;
  /** How long the last successful delivery took, milliseconds; orders channels (docs/alerts.md, "Who gets alerted"). */
  lastNotifyDurationMs: number | null;
  /**
   * Addresses of an `email` channel not yet confirmed by their owner (lowercase): no alert goes to them. Absent on
   * channels stored before confirmations existed, which count as confirmed.
   */
  unconfirmed?: string[];
}

const channelSchema = new Schema<ChannelDoc>(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    name: { type: String, default: '' },
    kind: { type: String, required: true },
    value: { type: String, default: '' },
    created: { type: Date, required: true },
    disabled: { type: Boolean, default: false },
    lastError: { type: String, default: '' },
    lastNotify: { type: Date, default: null },
    lastNotifyDurationMs: { type: Number, default: null },
    unconfirmed: { type: [String], default: undefined },
  },
  { versionKey: false },
);
channelSchema.index({ projectId: 1, created: 1 });

/** The `channels` collection. */
export const Channel = mongoose.model<ChannelDoc>('Channel', channelSchema);
