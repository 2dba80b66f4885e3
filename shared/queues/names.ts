/** BullMQ queue names, one per kind of work. */
export const QueueName = {
  /** One delayed job per check, due at its deadline. */
  Deadlines: 'deadlines',
  /** The worker's repeating reconciliation sweep (lost deadline and notify jobs, owed flips). */
  Sweep: 'sweep',
  /** One job per (flip, channel): delivers one alert. */
  Notify: 'notify',
  /** The repeating pass that sends email reports and reminders (shared/reports/run.ts). */
  Reports: 'reports',
} as const;
