/** BullMQ queue names, one per kind of work. */
export const QueueName = {
  /** One delayed job per check, due at its deadline. */
  Deadlines: 'deadlines',
  /** One job per flip that notifies; fans out to one notify job per channel. */
  Flips: 'flips',
  /** The worker's repeating reconciliation sweep (lost deadline and flip jobs). */
  Sweep: 'sweep',
  /** One job per (flip, channel): delivers one alert. */
  Notify: 'notify',
} as const;
