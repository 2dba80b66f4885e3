/**
 * A check (docs/checks.md, docs/api-reference.md, "Check object"). `_id` is the check UUID ("code"). Times are
 * `Date`s in UTC; `timeout`, `grace` and `lastDurationMs`'s siblings say their units.
 */
import mongoose, { Schema, Types } from 'mongoose';
import { uniqueKeyOf } from '../domain/ids.js';
import type { ScheduleKind } from '../domain/schedule.js';
import type { PingKind } from './ping.js';
import { checkRuleFields, marksField, type CheckRules, type FlipMark } from './check-rules.js';
import { checkTimerFields, indexCheckTimers, type CheckTimers } from './check-timers.js';

/** Stored status (docs/checks.md, "Status"); `grace` is only ever computed. */
export type StoredStatus = 'new' | 'up' | 'down' | 'paused';

/** Why a check flipped: `""` for a ping, `timeout` for a missed deadline, `fail` for a fail signal. */
export type FlipReason = '' | 'timeout' | 'fail';

/**
 * A flip the check owes, written in the same update as the status change that
 * causes it (the transactional outbox). Completing it inserts the flip under
 * `_id` and the notifications of its channels, then pulls the entry; every
 * step is idempotent, so a retry or the sweep finishes a crashed completion.
 */
export interface OutboxFlip {
  /** The flip's id, chosen when the status changed. */
  _id: Types.ObjectId;
  /** When the status changed (the flip's `created`; for a missed deadline, the computed going-down moment). */
  at: Date;
  /** When the status change was written; the sweep completes entries older than a few seconds. */
  recorded: Date;
  oldStatus: StoredStatus;
  newStatus: StoredStatus;
  reason: FlipReason;
  /** Why an alerting rule raised or held back this flip's alerts (docs/alerting-rules.md); absent when no rule played a part. */
  marks?: FlipMark[];
  /** A held-back alert released (shared/alerts/dependencies.ts): completing it sends alerts but records no flip. */
  alertOnly?: boolean;
  /**
   * Set on an alert that is not a flip (alerting rules, shared/domain/rules.ts): `late` (the check entered its grace period), `reminder` (still
   * down), `resumed` (still down when its maintenance window ended). No flip is inserted for it; `oldStatus`/`newStatus` are the check's status.
   */
  event?: RuleEvent;
  /** The reminder's number, 1 for the first (`event: 'reminder'` only). */
  n?: number;
}

/** An alert of an alerting rule that is not a flip (see {@link OutboxFlip.event}). */
export type RuleEvent = 'late' | 'reminder' | 'resumed';

/**
 * A ping the check counted, kept until its ping document surely exists: the
 * replay of a journaled ping finds it here and stores the document instead of
 * counting the ping twice (shared/pings/replay.ts). Those of the last
 * {@link RECENT_PINGS_MS}, at most {@link MAX_RECENT_PINGS} (all of the last write).
 */
export interface RecentPing {
  _id: Types.ObjectId;
  n: number;
  kind: PingKind;
  created: Date;
}

/** How long a check keeps a {@link RecentPing}, milliseconds: well past a dead web process's lease (PING_JOURNAL_LEASE_MS). */
export const RECENT_PINGS_MS = 60_000;
/** Most {@link RecentPing}s a check keeps (more only when one write counts more). */
export const MAX_RECENT_PINGS = 200;

/** A check as stored; the shape domain code works on. */
export interface CheckDoc extends CheckRules, CheckTimers {
  _id: string;
  projectId: string;
  /** Derived from `_id` (docs/api-reference.md, "unique_key"); set on validation. */
  uniqueKey: string;
  name: string;
  slug: string;
  tags: string;
  desc: string;
  /** `cron` or `oncalendar` by the schedule's shape (docs/api-reference.md, "Validation"; docs/api.md, "OnCalendar schedules"). */
  kind: ScheduleKind;
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
  /** Keywords came from the deprecated `subject`/`subject_fail` (docs/api-reference.md, "Deprecated subject fields"). */
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
  /** Flips owed by status changes whose completion has not finished (see {@link OutboxFlip}). */
  outbox: OutboxFlip[];
  /** The pings counted last (see {@link RecentPing}). */
  recentPings: RecentPing[];
  /** Version of the check's state: every write through shared/checks/store.ts is guarded by it and adds 1. */
  rev: number;
}

const outboxSchema = new Schema<OutboxFlip>(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    at: { type: Date, required: true },
    recorded: { type: Date, required: true },
    oldStatus: { type: String, required: true },
    newStatus: { type: String, required: true },
    reason: { type: String, default: '' },
    marks: marksField,
    alertOnly: { type: Boolean, default: undefined },
    event: { type: String },
    n: { type: Number },
  },
  { versionKey: false },
);

const recentPingSchema = new Schema<RecentPing>(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    n: { type: Number, required: true },
    kind: { type: String, required: true },
    created: { type: Date, required: true },
  },
  { versionKey: false },
);

const checkSchema = new Schema<CheckDoc>(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    uniqueKey: { type: String },
    name: { type: String, default: '' },
    slug: { type: String, default: '' },
    tags: { type: String, default: '' },
    desc: { type: String, default: '' },
    kind: { type: String, enum: ['simple', 'cron', 'oncalendar'], default: 'simple' },
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
    outbox: { type: [outboxSchema], default: [] },
    recentPings: { type: [recentPingSchema], default: [] },
    rev: { type: Number, default: 0 },
    ...checkRuleFields,
    ...checkTimerFields,
  },
  { versionKey: false },
);
checkSchema.pre('validate', function setUniqueKey() {
  this.uniqueKey = uniqueKeyOf(this._id);
});
// Each index costs every ping's write (on a server that stores the document as one column, every index entry of it), so only those
// the queries need (docs/architecture.md, "Indexes"). A project's whole set (API list, timeline, badges) and the list's sort by last
// ping are read through a `projectId` prefix and sorted by the server: at most a project's check limit of rows.
checkSchema.index({ projectId: 1, uniqueKey: 1 });
checkSchema.index({ projectId: 1, slug: 1 });
// The checks list (server/pages/checks/list/list-find.ts): by name, a status's rows by name, and the checks past or near their deadline.
checkSchema.index({ projectId: 1, name: 1 });
checkSchema.index({ projectId: 1, status: 1, name: 1 });
checkSchema.index({ projectId: 1, deadline: 1 });
checkSchema.index({ badgeKey: 1 });
checkSchema.index({ deadline: 1 });
checkSchema.index({ 'outbox.recorded': 1 });
checkSchema.index({ dependsOn: 1 }, { sparse: true });
indexCheckTimers(checkSchema);

/** The `checks` collection. */
export const Check = mongoose.model<CheckDoc>('Check', checkSchema);
