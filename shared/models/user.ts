/** A person who signs in to the web app (docs/web-app.md): email, an argon2id password hash (never the password), second factors. */
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
    /** Authenticator apps (TOTP, RFC 6238: SHA-1, 6 digits, 30 s), named; the secret is base32. */
    totp: { type: [{ _id: String, name: String, secret: String, created: Date }], default: [] },
    /** The last TOTP time step accepted for this user: a code of that step or before is refused (no replay). */
    totpLastStep: { type: Number, default: null },
    /** Security keys and passkeys (WebAuthn): credential id and COSE public key (base64url), signature counter. */
    webauthn: {
      type: [{ _id: String, name: String, publicKey: String, counter: Number, transports: [String], created: Date }],
      default: [],
    },
    /** Signed in through single sign-on at least once: the account is the address owner's (server/pages/account/sso.ts). */
    ssoLinked: { type: Boolean, default: false },
    /** SHA-256 hex digests of the unused one-time recovery codes. */
    recoveryCodes: { type: [String], default: [] },
    /** IANA time zone the web app shows times in (server/pages/kit/times.ts); proposed from the browser, UTC until set. */
    tz: { type: String, default: 'UTC' },
    /** Colour theme of the web app: `system` follows the browser's preference. */
    theme: { type: String, enum: ['system', 'light', 'dark'], default: 'system' },
    /** Email report of the user's checks (docs/reports.md): `off`, `daily`, `weekly` (Monday) or `monthly`, in `tz`. */
    reportPeriod: { type: String, enum: ['off', 'daily', 'weekly', 'monthly'], default: 'off' },
    /** Reminder while any check of the user's projects is down: `off`, `hourly` or `daily`. */
    reminderPeriod: { type: String, enum: ['off', 'hourly', 'daily'], default: 'off' },
    /** When the next report is due (the end of the current period); null while off. The worker's scheduler finds users by it. */
    reportDue: { type: Date, default: null },
    /** When the next reminder is due; null while off. */
    reminderDue: { type: Date, default: null },
  },
  { versionKey: false },
);
userSchema.index({ reportDue: 1 });
userSchema.index({ reminderDue: 1 });

/** A user document as stored. */
export type UserDoc = InferSchemaType<typeof userSchema> & { _id: string };

/** The `users` collection. */
export const User = mongoose.model('User', userSchema);
