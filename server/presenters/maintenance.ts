/** Maintenance window JSON (README "Alerting rules"): only the members of its kind (one-off or recurring); `active` and `active_until` at `now`. */
import type { MaintenanceDoc } from '../../shared/models/maintenance.js';
import { activeUntil } from '../../shared/domain/maintenance.js';
import { isoSeconds } from './time.js';

/** A window as the API shows it; times truncated to whole seconds with `+00:00`. */
export interface MaintenanceJson {
  uuid: string;
  name: string;
  start?: string;
  end?: string;
  schedule?: string;
  tz?: string;
  /** Seconds. */
  duration?: number;
  checks: '*' | string[];
  tags: string;
  active: boolean;
  /** When the occurrence active now ends; only while active. */
  active_until?: string;
}

/** The JSON of a window at `now`. */
export function presentMaintenance(window: MaintenanceDoc, now: Date): MaintenanceJson {
  const until = activeUntil(window, now);
  const json: MaintenanceJson = { uuid: window._id, name: window.name, checks: window.allChecks ? '*' : window.checkIds, tags: window.tags.join(' '), active: until !== null };
  if (window.schedule) Object.assign(json, { schedule: window.schedule, tz: window.tz, duration: window.duration });
  else Object.assign(json, { start: isoSeconds(window.start), end: isoSeconds(window.end) });
  if (until) json.active_until = isoSeconds(until)!;
  return json;
}
