/** BullMQ queue names, one per kind of work. */
export const QueueName = {
  /** One delayed job per check, due at its deadline. */
  Deadlines: 'deadlines',
  /** One job per flip that notifies; fans out to one notify job per channel. */
  Flips: 'flips',
} as const;
