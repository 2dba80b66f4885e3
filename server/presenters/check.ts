/** Check JSON (docs/api-reference.md, "Check object"), fields in the reference's output order. */
import type { CheckDoc } from '../../shared/models/check.js';
import { graceStart, liveStatus, type LiveStatus } from '../../shared/domain/status.js';
import { config } from '../../shared/config.js';
import { uniqueKeyOf } from '../../shared/domain/ids.js';
import type { ApiVersion } from '../middleware/version.js';
import { isoSeconds } from './time.js';
import { presentRules, type CheckRulesJson } from './check-rules.js';
import { presentTimerRules, type TimerRulesJson } from './timer-rules.js';

const MS_PER_SECOND = 1000;

/** How a check is shown. */
export interface CheckView {
  /** A read-only API key hides the UUID and URLs and adds `unique_key` (docs/api-reference.md, "Check object"). */
  readOnly: boolean;
  /** The moment the live status is computed at. */
  now: Date;
  /** The request's API version: the path of the URLs, and `started` as a status in v1. */
  version: ApiVersion;
  /** Until when a maintenance window covers the check at `now` (shared/checks/maintenance.ts); without it, none does. */
  maintenanceUntil?: (check: CheckDoc) => Date | null;
}

/** The status a check shows: v1 also has `started` (docs/api-reference.md, "Paths and versions"). */
export type ShownStatus = LiveStatus | 'started';

/** The Check object; optional members depend on the key and the check's kind. */
export interface CheckJson extends CheckRulesJson, TimerRulesJson {
  name: string;
  slug: string;
  tags: string;
  desc: string;
  /** Seconds. */
  grace: number;
  n_pings: number;
  status: ShownStatus;
  started: boolean;
  last_ping: string | null;
  next_ping: string | null;
  manual_resume: boolean;
  methods: string;
  subject: string;
  subject_fail: string;
  start_kw: string;
  success_kw: string;
  failure_kw: string;
  filter_subject: boolean;
  filter_body: boolean;
  filter_http_body: boolean;
  filter_default_fail: boolean;
  badge_url: string;
  /** Whole seconds of the last run; only when non-null and non-zero. */
  last_duration?: number;
  unique_key?: string;
  uuid?: string;
  ping_url?: string;
  update_url?: string;
  pause_url?: string;
  resume_url?: string;
  /** Assigned channel UUIDs, sorted, comma-separated. */
  channels?: string;
  /** Seconds; simple checks only. */
  timeout?: number;
  schedule?: string;
  tz?: string;
}

/** The API representation of a check, for `view`'s key kind, moment and API version. */
export function presentCheck(check: CheckDoc, view: CheckView): CheckJson {
  const json: CheckJson = {
    name: check.name,
    slug: check.slug,
    tags: check.tags,
    desc: check.desc,
    grace: Math.trunc(check.grace),
    n_pings: check.nPings,
    status: shownStatus(check, view),
    started: check.lastStart !== null,
    last_ping: isoSeconds(check.lastPing),
    next_ping: isoSeconds(graceStart(check)),
    manual_resume: check.manualResume,
    methods: check.methods,
    subject: check.filterSubject ? check.successKw : '',
    subject_fail: check.filterSubject ? check.failureKw : '',
    start_kw: check.startKw,
    success_kw: check.successKw,
    failure_kw: check.failureKw,
    filter_subject: check.filterSubject,
    filter_body: check.filterBody,
    filter_http_body: check.filterHttpBody,
    filter_default_fail: check.filterDefaultFail,
    badge_url: `${config.baseUrl}/b/2/${check.badgeKey}.svg`,
  };
  if (check.lastDurationMs) json.last_duration = Math.trunc(check.lastDurationMs / MS_PER_SECOND);
  if (view.readOnly) {
    json.unique_key = uniqueKeyOf(check._id);
  } else {
    const updateUrl = `${config.baseUrl}/api/v${view.version}/checks/${check._id}`;
    json.uuid = check._id;
    json.ping_url = `${config.baseUrl}/ping/${check._id}`;
    json.update_url = updateUrl;
    json.pause_url = `${updateUrl}/pause`;
    json.resume_url = `${updateUrl}/resume`;
    json.channels = [...check.channels].sort().join(',');
  }
  if (check.kind === 'simple') {
    json.timeout = Math.trunc(check.timeout);
  } else {
    json.schedule = check.schedule;
    json.tz = check.tz;
  }
  Object.assign(json, presentRules(check, view.readOnly), presentTimerRules(check, Boolean(view.maintenanceUntil?.(check))));
  return json;
}

/**
 * The live status (docs/checks.md, "Status"), except that v1 shows a run in progress as `started` until it overruns its grace
 * (reference: `Check.get_status(with_started=True)`).
 */
function shownStatus(check: CheckDoc, view: CheckView): ShownStatus {
  const status = liveStatus(check, view.now);
  if (view.version !== 1 || !check.lastStart) return status;
  const overrun = view.now.getTime() >= check.lastStart.getTime() + check.grace * MS_PER_SECOND;
  return overrun ? status : 'started';
}
