/**
 * Maintenance window JSON (docs/alerting-rules.md): only the members of its kind (one-off or recurring); `active` and `active_until` at `now`.
 * Checks are named by UUID, or to a read-only key by `unique_key`, as the checks list names them (docs/api-reference.md, "Check object"): a UUID is all a ping needs.
 */
import type { MaintenanceDoc } from '../../shared/models/maintenance.js';
import { activeUntil } from '../../shared/domain/maintenance.js';
import { isoSeconds } from './time.js';
import { uniqueKeyOf } from '../../shared/domain/ids.js';

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
  /** `*`, or the checks' UUIDs (their `unique_key`s for a read-only key). */
  checks: '*' | string[];
  tags: string;
  active: boolean;
  /** When the occurrence active now ends; only while active. */
  active_until?: string;
}

/** The JSON of a window at `now`, for a read-only key when `readOnly`. */
export function presentMaintenance(window: MaintenanceDoc, now: Date, readOnly: boolean): MaintenanceJson {
  const until = activeUntil(window, now);
  const checks = window.allChecks ? '*' : readOnly ? window.checkIds.map(uniqueKeyOf) : window.checkIds;
  const json: MaintenanceJson = { uuid: window._id, name: window.name, checks, tags: window.tags.join(' '), active: until !== null };
  if (window.schedule) Object.assign(json, { schedule: window.schedule, tz: window.tz, duration: window.duration });
  else Object.assign(json, { start: isoSeconds(window.start), end: isoSeconds(window.end) });
  if (until) json.active_until = isoSeconds(until)!;
  return json;
}
