/** The timed alerting rules in a check's JSON (docs/alerting-rules.md): each key only when the rule is set, so a check without rules shows exactly the keys it showed before. */
import type { CheckDoc } from '../../shared/models/check.js';
import type { NotificationDoc } from '../../shared/models/notification.js';

/** `notify_late` (true) and `repeat_every` (seconds) when set, and `maintenance` while a window covers the check. */
export interface TimerRulesJson {
  notify_late?: true;
  repeat_every?: number;
  /** Only while a maintenance window covers the check. */
  maintenance?: true;
}

/** The rules' keys of a check's JSON; `{}` for a check without them. */
export function presentTimerRules(check: Pick<CheckDoc, 'notifyLate' | 'repeatEvery'>, inMaintenance = false): TimerRulesJson {
  const json: TimerRulesJson = {};
  if (inMaintenance) json.maintenance = true;
  if (check.notifyLate) json.notify_late = true;
  if (check.repeatEvery) json.repeat_every = check.repeatEvery;
  return json;
}

/** Why a timed rule sent an alert, as the notification log says it: `late`, `reminder 2`, `in maintenance`, `maintenance ended`; `""` for a flip's own alert. */
export function timerReasonOf(notification: Pick<NotificationDoc, 'event' | 'n' | 'held'>): string {
  if (notification.held) return 'in maintenance';
  if (notification.event === 'late') return 'late';
  if (notification.event === 'reminder') return `reminder ${notification.n ?? 1}`;
  return notification.event === 'resumed' ? 'maintenance ended' : '';
}
