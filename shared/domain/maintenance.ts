/**
 * Maintenance windows in time (docs/alerting-rules.md): whether a window is active at a moment and until when, and which checks it covers. Pure:
 * time is a parameter. Recurring windows use the project's own cron or OnCalendar engine (shared/domain/schedule.ts), by the schedule's shape.
 */
import { nextPingAt, scheduleKind } from './schedule.js';
import type { MaintenanceDoc } from '../models/maintenance.js';
import type { CheckDoc } from '../models/check.js';

const MS_PER_SECOND = 1000;
/** Most overlapping occurrences of one recurring window looked at (a duration far longer than its period). */
const MAX_OCCURRENCES = 1000;

/** The window fields the timing reads. */
export type WindowTime = Pick<MaintenanceDoc, 'start' | 'end' | 'schedule' | 'tz' | 'duration'>;
/** The window fields the coverage reads. */
export type WindowScope = Pick<MaintenanceDoc, 'allChecks' | 'checkIds' | 'tags'>;

/**
 * When the occurrence of `window` covering `now` ends (the latest end when occurrences overlap); null when none covers it. A one-off window covers
 * [start, end); a recurring one each [match, match + duration) of its schedule in its zone.
 * @throws as `nextPingAt` for a schedule or zone the API would have refused.
 */
export function activeUntil(window: WindowTime, now: Date): Date | null {
  if (!window.schedule) return window.start && window.end && window.start <= now && now < window.end ? window.end : null;
  const durationMs = window.duration * MS_PER_SECOND;
  const spec = { kind: scheduleKind(window.schedule), schedule: window.schedule, tz: window.tz };
  let until: Date | null = null;
  let match = nextPingAt(spec, new Date(now.getTime() - durationMs));
  for (let i = 0; match && match <= now && i < MAX_OCCURRENCES; i++) {
    until = new Date(match.getTime() + durationMs);
    match = nextPingAt(spec, match);
  }
  return until;
}

/** Whether `window` covers `check`: every check, its UUID listed, or one of its tags listed. */
export function coversCheck(window: WindowScope, check: Pick<CheckDoc, '_id' | 'tags'>): boolean {
  if (window.allChecks || window.checkIds.includes(check._id)) return true;
  if (window.tags.length === 0) return false;
  const tags = new Set(check.tags.split(/\s+/).filter(Boolean));
  return window.tags.some((tag) => tags.has(tag));
}

/** Until when the check is in maintenance at `now`: the latest end among the active windows covering it; null when none. */
export function maintenanceUntil(windows: readonly (WindowTime & WindowScope)[], check: Pick<CheckDoc, '_id' | 'tags'>, now: Date): Date | null {
  let until: Date | null = null;
  for (const window of windows) {
    if (!coversCheck(window, check)) continue;
    const end = activeUntil(window, now);
    if (end && (!until || end > until)) until = end;
  }
  return until;
}
