/**
 * A link mailed to an account's address (docs/security.md): a password reset, a sign-in link, an email
 * change, or the undoing of one (mailed to the old address; `newEmail` is the address it restores). The link carries the id and its HMAC signature; the document says what it is for, for whom, until when,
 * and whether it was used (a second use is refused).
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';

/** What a link does. */
export const TOKEN_PURPOSES = ['reset', 'signin', 'email', 'undo'] as const;

const accountTokenSchema = new Schema(
  {
    _id: { type: String, required: true },
    purpose: { type: String, enum: TOKEN_PURPOSES, required: true },
    userId: { type: String, required: true },
    /** The user's address when the link was made: a link outlives no address change. */
    userEmail: { type: String, required: true },
    /** The user's session epoch when the link was made: a password change (which raises it) voids the link. */
    epoch: { type: Number, required: true },
    /** The new address of an email change; `""` otherwise. */
    newEmail: { type: String, default: '' },
    created: { type: Date, required: true },
    expires: { type: Date, required: true },
    /** Set by the one use. */
    usedAt: { type: Date, default: null },
  },
  { versionKey: false },
);

/** A link's document as stored. */
export type AccountTokenDoc = InferSchemaType<typeof accountTokenSchema> & { _id: string };

/** The `accounttokens` collection. */
export const AccountToken = mongoose.model('AccountToken', accountTokenSchema);
