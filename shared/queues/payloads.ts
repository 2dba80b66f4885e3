/** Job payloads, typed per queue. Payloads carry ids only; MongoDB is the truth. */

/**
 * Payload of a `deadlines` job: a timer (`at`, epoch milliseconds, see
 * shared/queues/deadlines.ts), or, from a version that kept one job per check,
 * that check's UUID (`checkId`): it is put in the index as due and drained.
 */
export interface DeadlinePayload {
  at?: number;
  checkId?: string;
}

/** Payload of a `notify` job: the alert of one flip through one channel. */
export interface NotifyPayload {
  flipId: string;
  /** The flipped check's UUID (read with the claim, not after it). */
  checkId: string;
  channelId: string;
}
