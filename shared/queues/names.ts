/** BullMQ queue names, one per kind of work. */
export const QueueName = {
  /** One delayed job per check, due at its deadline. */
  Deadlines: 'deadlines',
} as const;
