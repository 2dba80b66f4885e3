/** Notification-log JSON (`GET checks/<uuid>/notifications/`): one alert of one flip through one channel. */
import type { LoggedNotification } from '../services/notifications.js';
import { isoSeconds } from './time.js';
import { describeMarks } from '../../shared/domain/marks.js';
import { timerReasonOf } from './timer-rules.js';

/**
 * Where an alert stands: `delivered`; `failed` (no attempt left, or a refusal that will not change; `error` says why); `skipped` (never sent: the
 * channel was disabled or deleted, or the check paused or deleted, before its first attempt; `error` says which); `pending` (waiting for its first
 * attempt or a retry); `sending` (an attempt is running).
 */
export type NotificationOutcome = 'delivered' | 'failed' | 'skipped' | 'pending' | 'sending';

/** A notification as the log lists it; times truncated to whole seconds with `+00:00`. */
export interface NotificationJson {
  /** The flip's direction, what the alert announces; `late` for a late warning (docs/alerting-rules.md). */
  status: 'up' | 'down' | 'late';
  /** When the check changed status (the flip's timestamp). */
  flip_timestamp: string;
  channel: { id: string; name: string; kind: string } | null;
  channel_id: string;
  /** When the notification was created (the flip was processed). */
  created: string;
  outcome: NotificationOutcome;
  /** When the provider accepted the alert; null unless delivered. */
  delivered: string | null;
  /** Attempts made, a failed one and an interrupted one included. */
  attempts: number;
  /** The last attempt's error (the provider's answer), or why it was skipped; `""` when delivered or not tried yet. */
  error: string;
  /** Why an alerting rule raised or held back the alert (`ran too fast; threshold reached`, `late`, `reminder 2`); only when a rule played a part. */
  reason?: string;
}

/** The JSON of a logged notification; a `failed` one without any attempt is `skipped` (behaviour of shared/alerts/attempt.ts). */
export function presentNotification({ notification: n, channel }: LoggedNotification): NotificationJson {
  const outcome = n.state === 'failed' && n.attempts === 0 ? 'skipped' : n.state;
  const json: NotificationJson = {
    status: n.event === 'late' ? 'late' : n.status,
    flip_timestamp: isoSeconds(n.flipCreated),
    channel: channel ? { id: channel._id, name: channel.name, kind: channel.kind } : null,
    channel_id: n.channelId,
    created: isoSeconds(n.created),
    outcome,
    delivered: isoSeconds(n.delivered),
    attempts: n.attempts,
    error: n.error,
  };
  const reason = [n.marks?.length ? describeMarks(n.marks) : '', timerReasonOf(n) ?? ''].filter(Boolean).join('; ');
  if (reason) json.reason = reason;
  return json;
}
