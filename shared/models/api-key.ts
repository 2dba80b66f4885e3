/**
 * A named API key made in the web app (docs/api-reference.md, "API keys"): read-write or read-only, stored as its SHA-256 digest like
 * the project's own keys, and revoked by deleting it.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';

const apiKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true, index: true },
    name: { type: String, required: true },
    readOnly: { type: Boolean, required: true },
    /** SHA-256 hex digest of the key. */
    hash: { type: String, required: true, unique: true },
    /** First characters of the key (`hcw_ab…`), so a person can tell keys apart. */
    prefix: { type: String, required: true },
    created: { type: Date, required: true },
  },
  { versionKey: false },
);

/** An API key document as stored. */
export type ApiKeyDoc = InferSchemaType<typeof apiKeySchema> & { _id: string };

/** The `apikeys` collection. */
export const ApiKey = mongoose.model('ApiKey', apiKeySchema);
