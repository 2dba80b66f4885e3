/** A user's role in a project (docs/web-app.md, roles table): owner, rw (read-write) or ro (read-only). */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';

/** Roles, strongest first. */
export const ROLES = ['owner', 'rw', 'ro'] as const;
/** A member's role. */
export type Role = (typeof ROLES)[number];

const membershipSchema = new Schema(
  {
    projectId: { type: String, required: true },
    userId: { type: String, required: true, index: true },
    role: { type: String, enum: ROLES, required: true },
    created: { type: Date, required: true },
  },
  { versionKey: false },
);
membershipSchema.index({ projectId: 1, userId: 1 }, { unique: true });

/** A membership document as stored. */
export type MembershipDoc = InferSchemaType<typeof membershipSchema> & { _id: unknown; role: Role };

/** The `memberships` collection. */
export const Membership = mongoose.model('Membership', membershipSchema);
