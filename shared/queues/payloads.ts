/** Job payloads, typed per queue. Payloads carry ids only; MongoDB is the truth. */

/** Payload of a `deadlines` job: the check whose deadline may have passed (shared/deadlines/schedule.ts). */
export interface DeadlinePayload {
  checkId: string;
}

/** Payload of a `notify` job: the alert of one flip through one channel. */
export interface NotifyPayload {
  flipId: string;
  /** The flipped check's UUID (read with the claim, not after it). */
  checkId: string;
  channelId: string;
}
