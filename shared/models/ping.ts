/**
 * A logged ping; `n` is 1-based and unique per check: the check store hands each number out once, in the
 * check's guarded write (shared/pings/record.ts). The ping's identity is its `_id`, chosen before it is applied, so an insert
 * that is repeated (a replay of the journal) is refused by the primary key; `{checkId, n}` serves the ping log's reads and is
 * not unique: a unique index led by a key all of a check's pings share makes every insert scan that check's entries
 * (docs/architecture.md, "Indexes").
 */
import mongoose, { Schema } from 'mongoose';

/** Stored kind; `success` is the reference's null kind. */
export type PingKind = 'success' | 'start' | 'fail' | 'log' | 'ign';

/** A ping as stored. */
export interface PingDoc {
  /** Given by the web process to a journaled ping (shared/pings/journal.ts), so a replay finds it stored. */
  _id?: mongoose.Types.ObjectId;
  checkId: string;
  n: number;
  created: Date;
  kind: PingKind;
  /** `http`, `https` or `email`. */
  scheme: string;
  remoteAddr: string | null;
  /** HTTP method, `""` for email. */
  method: string;
  ua: string;
  /** Raw body bytes, null when none was sent. */
  body: Buffer | null;
  exitStatus: number | null;
  rid: string | null;
}

const pingSchema = new Schema<PingDoc>(
  {
    checkId: { type: String, required: true },
    n: { type: Number, required: true },
    created: { type: Date, required: true },
    kind: { type: String, required: true },
    scheme: { type: String, default: 'http' },
    remoteAddr: { type: String, default: null },
    method: { type: String, default: '' },
    ua: { type: String, default: '' },
    body: { type: Buffer, default: null },
    exitStatus: { type: Number, default: null },
    rid: { type: String, default: null },
  },
  { versionKey: false },
);
pingSchema.index({ checkId: 1, n: -1 });

/** The `pings` collection. */
export const Ping = mongoose.model<PingDoc>('Ping', pingSchema);
