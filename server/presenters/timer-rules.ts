/** The timed alerting rules in a check's JSON (README "Alerting rules"): each key only when the rule is set, so a check without rules shows exactly the keys it showed before. */
import type { CheckDoc } from '../../shared/models/check.js';
import type { NotificationDoc } from '../../shared/models/notification.js';

/** `notify_late` (true) and `repeat_every` (seconds) when set. */
export interface TimerRulesJson {
  notify_late?: true;
  repeat_every?: number;
}

/** The rules' keys of a check's JSON; `{}` for a check without them. */
export function presentTimerRules(check: Pick<CheckDoc, 'notifyLate' | 'repeatEvery'>): TimerRulesJson {
  const json: TimerRulesJson = {};
  if (check.notifyLate) json.notify_late = true;
  if (check.repeatEvery) json.repeat_every = check.repeatEvery;
  return json;
}

/** Why a timed rule sent an alert, as the notification log says it: `late`, `reminder 2`, `maintenance ended`; `""` for a flip's own alert. */
export function timerReasonOf(notification: Pick<NotificationDoc, 'event' | 'n'>): string {
  if (notification.event === 'late') return 'late';
  if (notification.event === 'reminder') return `reminder ${notification.n ?? 1}`;
  return notification.event === 'resumed' ? 'maintenance ended' : '';
}
