/** From the payload's timed alerting rules (server/schemas/timer-rules.ts) to stored check fields; absent ones are left out. */
import type { CheckDoc } from '../../shared/models/check.js';
import type { TimerRuleInput } from '../schemas/timer-rules.js';

/** The check fields `notify_late` and `repeat_every` write (`repeat_every: null` stores null: reminders off). */
export function timerRuleFieldsOf(input: TimerRuleInput): Partial<CheckDoc> {
  const set: Partial<CheckDoc> = {};
  if (input.notify_late !== undefined) set.notifyLate = input.notify_late;
  if (input.repeat_every !== undefined) set.repeatEvery = input.repeat_every;
  return set;
}
