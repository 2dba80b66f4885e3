/**
 * A check (behaviour.md §1.1). `_id` is the check UUID ("code"). Times are
 * `Date`s in UTC; `timeout`, `grace` and `lastDurationMs`'s siblings say their units.
 */
import mongoose, { Schema } from 'mongoose';
import { uniqueKeyOf } from '../domain/ids.js';

/** Stored status (behaviour.md §2.1); `grace` is only ever computed. */
export type StoredStatus = 'new' | 'up' | 'down' | 'paused';

/** A check as stored; the shape domain code works on. */
export interface CheckDoc {
  _id: string;
  projectId: string;
  /** Derived from `_id` (behaviour.md §1.4); set on validation. */
  uniqueKey: string;
  name: string;
  slug: string;
  tags: string;
  desc: string;
  kind: 'simple' | 'cron';
  /** Seconds. */
  timeout: number;
  /** Seconds. */
  grace: number;
  schedule: string;
  tz: string;
  filterSubject: boolean;
  filterBody: boolean;
  filterHttpBody: boolean;
  filterDefaultFail: boolean;
  /** Keywords came from the deprecated `subject`/`subject_fail` (behaviour.md §3.11 rule 4). */
  legacySubject: boolean;
  startKw: string;
  successKw: string;
  failureKw: string;
  methods: '' | 'POST';
  manualResume: boolean;
  badgeKey: string;
  /** Channel UUIDs assigned to the check. */
  channels: string[];
  nPings: number;
  /** Last success or fail signal. */
  lastPing: Date | null;
  /** Outstanding start signal. */
  lastStart: Date | null;
  lastStartRid: string | null;
  /** Duration of the last completed run, milliseconds. */
  lastDurationMs: number | null;
  /** The moment the check goes down ("alert_after"); null when none is expected. */
  deadline: Date | null;
  status: StoredStatus;
  created: Date;
}

const checkSchema = new Schema<CheckDoc>(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    uniqueKey: { type: String },
    name: { type: String, default: '' },
    slug: { type: String, default: '' },
    tags: { type: String, default: '' },
    desc: { type: String, default: '' },
    kind: { type: String, enum: ['simple', 'cron'], default: 'simple' },
    timeout: { type: Number, default: 86400 },
    grace: { type: Number, default: 3600 },
    schedule: { type: String, default: '* * * * *' },
    tz: { type: String, default: 'UTC' },
    filterSubject: { type: Boolean, default: false },
    filterBody: { type: Boolean, default: false },
    filterHttpBody: { type: Boolean, default: false },
    filterDefaultFail: { type: Boolean, default: false },
    legacySubject: { type: Boolean, default: false },
    startKw: { type: String, default: '' },
    successKw: { type: String, default: '' },
    failureKw: { type: String, default: '' },
    methods: { type: String, enum: ['', 'POST'], default: '' },
    manualResume: { type: Boolean, default: false },
    badgeKey: { type: String, required: true },
    channels: { type: [String], default: [] },
    nPings: { type: Number, default: 0 },
    lastPing: { type: Date, default: null },
    lastStart: { type: Date, default: null },
    lastStartRid: { type: String, default: null },
    lastDurationMs: { type: Number, default: null },
    deadline: { type: Date, default: null },
    status: { type: String, enum: ['new', 'up', 'down', 'paused'], default: 'new' },
    created: { type: Date, required: true },
  },
  { versionKey: false },
);
checkSchema.pre('validate', function setUniqueKey() {
  this.uniqueKey = uniqueKeyOf(this._id);
});
checkSchema.index({ projectId: 1, created: 1 });
checkSchema.index({ projectId: 1, uniqueKey: 1 });
checkSchema.index({ projectId: 1, slug: 1 });
checkSchema.index({ badgeKey: 1 });
checkSchema.index({ deadline: 1 });

/** The `checks` collection. */
export const Check = mongoose.model<CheckDoc>('Check', checkSchema);
