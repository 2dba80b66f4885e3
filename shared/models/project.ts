/** A project (behaviour.md §1.1): owns checks and channels; API keys are stored as SHA-256 hex digests. */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';

const projectSchema = new Schema(
  {
    _id: { type: String, required: true },
    name: { type: String, default: '' },
    apiKeyHash: { type: String, required: true, index: true },
    apiKeyReadonlyHash: { type: String, required: true, index: true },
    /** 22 URL-safe characters (behaviour.md §5 recognises this length in email addresses). */
    pingKey: { type: String, required: true, unique: true },
    /** Random UUID used in tag badge URLs (behaviour.md §3.12). */
    badgeKey: { type: String, required: true, unique: true },
    /** Pings kept and listed per check (behaviour.md §1.1, default 100). */
    pingLogLimit: { type: Number, required: true },
    /** Checks a project may hold (behaviour.md §3.8, default 20). */
    checkLimit: { type: Number, required: true },
    created: { type: Date, required: true },
    /** Members must have a second factor to open the project's pages (set by an owner who has one). */
    requireSecondFactor: { type: Boolean, default: false },
    /** Held while an owner is demoted or removed (shared/services/members.ts): `{ token, until }`, else absent. */
    ownersLease: { type: { _id: false, token: String, until: Date }, default: undefined },
  },
  { versionKey: false },
);

/** A project document as stored. */
export type ProjectDoc = InferSchemaType<typeof projectSchema> & { _id: string };

/** The `projects` collection. */
export const Project = mongoose.model('Project', projectSchema);
