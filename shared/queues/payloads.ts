/** Job payloads, typed per queue. Payloads carry ids only; MongoDB is the truth. */

/** Payload of a `deadlines` job. */
export interface DeadlinePayload {
  checkId: string;
}

/** Payload of a `flips` job. */
export interface FlipPayload {
  flipId: string;
}
