/** A project: owns checks and channels; API keys are stored as SHA-256 hex digests. */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';

/**
 * What a project imported from Healthchecks keeps so its old API keys and badge URLs work (docs/migrating.md): that site's
 * SECRET_KEY encrypted under ours, and each key's stored form there (its first 8 random characters and the HMAC-SHA256 hex).
 */
const referenceSchema = new Schema(
  {
    secret: { type: String, required: true },
    apiKeyPrefix: { type: String, default: null },
    apiKeyDigest: { type: String, default: null },
    apiKeyReadonlyPrefix: { type: String, default: null },
    apiKeyReadonlyDigest: { type: String, default: null },
  },
  { _id: false },
);

const projectSchema = new Schema(
  {
    _id: { type: String, required: true },
    name: { type: String, default: '' },
    apiKeyHash: { type: String, required: true, index: true },
    apiKeyReadonlyHash: { type: String, required: true, index: true },
    /** 22 URL-safe characters (the `<ping key>+<slug>` email address takes this length: docs/email-pings.md, "Addresses"). */
    pingKey: { type: String, required: true, unique: true },
    /** Random UUID used in tag badge URLs (docs/api-reference.md, "Badges"). */
    badgeKey: { type: String, required: true, unique: true },
    /** Pings kept and listed per check (default 100; docs/pinging.md, "Pruning"). */
    pingLogLimit: { type: Number, required: true },
    /** Checks a project may hold (docs/api-reference.md, "Check limit"; new projects get `DEFAULT_CHECK_LIMIT`). */
    checkLimit: { type: Number, required: true },
    created: { type: Date, required: true },
    /** Members must have a second factor to open the project's pages (set by an owner who has one). */
    requireSecondFactor: { type: Boolean, default: false },
    /** Held while an owner is demoted or removed (shared/services/members.ts): `{ token, until }`, else absent. */
    ownersLease: { type: { _id: false, token: String, until: Date }, default: undefined },
    /** Present on a project imported from Healthchecks with a secret key (docs/migrating.md). */
    reference: { type: referenceSchema, default: undefined },
  },
  { versionKey: false },
);

projectSchema.index({ 'reference.apiKeyPrefix': 1 });
projectSchema.index({ 'reference.apiKeyReadonlyPrefix': 1 });

/** A project document as stored. */
export type ProjectDoc = InferSchemaType<typeof projectSchema> & { _id: string };

/** The `projects` collection. */
export const Project = mongoose.model('Project', projectSchema);
