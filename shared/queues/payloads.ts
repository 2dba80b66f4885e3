/** Job payloads, typed per queue. Payloads carry ids only; MongoDB is the truth. */

/** Payload of a {@link QueueName.Deadlines} job. */
export interface DeadlinePayload {
  checkId: string;
}
