/** An invitation to join a project with a role; its link is signed with SECRET_KEY, used once, expires, and may be revoked. */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { ROLES } from './membership.js';

const invitationSchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true, index: true },
    /** Lowercase address the owner typed. */
    email: { type: String, required: true },
    role: { type: String, enum: ROLES, required: true },
    invitedBy: { type: String, required: true },
    created: { type: Date, required: true },
    expires: { type: Date, required: true },
    /** Set when accepted: a second use is refused. */
    usedAt: { type: Date, default: null },
    /** Set when an owner revokes it before use: the link then opens nothing. */
    revokedAt: { type: Date, default: null },
  },
  { versionKey: false },
);

/** An invitation document as stored. */
export type InvitationDoc = InferSchemaType<typeof invitationSchema> & { _id: string };

/** The `invitations` collection. */
export const Invitation = mongoose.model('Invitation', invitationSchema);
