/** A person who signs in to the web app (README, Web app): email and an argon2id password hash, never the password. */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';

const userSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** Lowercase, trimmed; one account per address. */
    email: { type: String, required: true, unique: true },
    /** argon2id PHC string. */
    passwordHash: { type: String, required: true },
    created: { type: Date, required: true },
    /** Raised by a password change: sessions signed in under an older value are signed out. */
    sessionEpoch: { type: Number, default: 0 },
  },
  { versionKey: false },
);

/** A user document as stored. */
export type UserDoc = InferSchemaType<typeof userSchema> & { _id: string };

/** The `users` collection. */
export const User = mongoose.model('User', userSchema);
