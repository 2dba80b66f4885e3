/**
 * An integration ("channel" in the API, behaviour.md §1.7). `value` is the
 * kind's settings: a plain string (an address, a URL) or a JSON document.
 */
import mongoose, { Schema } from 'mongoose';

/** A channel as stored. */
export interface ChannelDoc {
  _id: string;
  projectId: string;
  name: string;
  kind: string;
  value: string;
  created: Date;
}

const channelSchema = new Schema<ChannelDoc>(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    name: { type: String, default: '' },
    kind: { type: String, required: true },
    value: { type: String, default: '' },
    created: { type: Date, required: true },
  },
  { versionKey: false },
);
channelSchema.index({ projectId: 1, created: 1 });

/** The `channels` collection. */
export const Channel = mongoose.model<ChannelDoc>('Channel', channelSchema);
