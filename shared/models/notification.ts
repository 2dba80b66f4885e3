/**
 * One alert: one flip through one channel (docs/alerts.md, "Retries and delivery guarantee"), unique per pair, the exactly-once guard of
 * delivery whatever Redis does with its job. `state`: `pending` → `sending` (an attempt holds the lease) →
 * `delivered`; back to `pending` after a retryable error; `failed` when no attempt is left or the error is final.
 */
import mongoose, { Schema } from 'mongoose';
import type { FlipReason, RuleEvent } from './check.js';
import { marksField, type FlipMark } from './check-rules.js';

/** Where the delivery stands. */
export type NotificationState = 'pending' | 'sending' | 'delivered' | 'failed';

/** The outcome of one delivery attempt. */
export interface NotificationAttempt {
  started: Date;
  finished: Date;
  /** `""` when the attempt delivered; otherwise why it did not. */
  error: string;
}

/** A notification as stored. */
export interface NotificationDoc {
  /** Random UUID; also the idempotency key sent to providers that take one (Matrix txn id). */
  _id: string;
  flipId: string;
  checkId: string;
  channelId: string;
  /** The flip's direction: what the alert announces. */
  status: 'up' | 'down';
  /** The flip's `created` (when the check changed status) and `reason`: the alert is built without reading the flip. */
  flipCreated: Date;
  reason: FlipReason;
  /** The flip's marks: why an alerting rule raised it; absent when none played a part. */
  marks?: FlipMark[];
  /** A timed rule's alert, not a flip's: `late`, `reminder` (number `n`), `resumed` (docs/alerting-rules.md); absent for a flip's alert. */
  event?: RuleEvent;
  n?: number;
  /** Held back by a maintenance window: never sent (`failed` without attempts, error `in maintenance`). */
  held?: boolean;
  state: NotificationState;
  /** Error text of the last attempt; `""` when it delivered or none ran yet. */
  error: string;
  /** Attempts that ran, including one interrupted by a worker that stopped. */
  attempts: number;
  attemptLog: NotificationAttempt[];
  /** Token of the attempt holding the lease while `sending`. */
  claimToken: string | null;
  /** While `sending`: until when the attempt may still be running; after it, another worker may take over. */
  leaseUntil: Date | null;
  /** While `sending`: when the attempt holding the lease started. */
  sendingSince: Date | null;
  created: Date;
  /** When the provider accepted the alert. */
  delivered: Date | null;
  updated: Date;
}

const attemptSchema = new Schema<NotificationAttempt>(
  {
    started: { type: Date, required: true },
    finished: { type: Date, required: true },
    error: { type: String, default: '' },
  },
  { _id: false },
);

const notificationSchema = new Schema<NotificationDoc>(
  {
    _id: { type: String, required: true },
    flipId: { type: String, required: true },
    checkId: { type: String, required: true },
    channelId: { type: String, required: true },
    status: { type: String, enum: ['up', 'down'], required: true },
    flipCreated: { type: Date, required: true },
    reason: { type: String, default: '' },
    marks: marksField,
    event: { type: String },
    n: { type: Number },
    held: { type: Boolean },
    state: { type: String, enum: ['pending', 'sending', 'delivered', 'failed'], default: 'pending' },
    error: { type: String, default: '' },
    attempts: { type: Number, default: 0 },
    attemptLog: { type: [attemptSchema], default: [] },
    claimToken: { type: String, default: null },
    leaseUntil: { type: Date, default: null },
    sendingSince: { type: Date, default: null },
    created: { type: Date, required: true },
    delivered: { type: Date, default: null },
    updated: { type: Date, required: true },
  },
  { versionKey: false },
);
notificationSchema.index({ flipId: 1, channelId: 1 }, { unique: true });
notificationSchema.index({ channelId: 1, created: -1 });
notificationSchema.index({ checkId: 1, created: -1 });
// The sweep's queries for notifications whose job was lost.
notificationSchema.index({ state: 1, updated: 1 });
notificationSchema.index({ state: 1, leaseUntil: 1 });

/** The `notifications` collection. */
export const Notification = mongoose.model<NotificationDoc>('Notification', notificationSchema);
