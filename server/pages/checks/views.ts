/** The data of the checks area's templates but the list's (list/views.ts); kit/views.ts says how `PageViews` is shared. */
import type { CheckDoc } from '../../../shared/models/check.js';
import type { ChannelDoc } from '../../../shared/models/channel.js';
import type { FlipDoc } from '../../../shared/models/flip.js';
import type { MaintenanceDoc } from '../../../shared/models/maintenance.js';
import type { CAN } from '../../../shared/services/members.js';
import type { CheckJson } from '../../presenters/check.js';
import type { NotificationJson } from '../../presenters/notification.js';
import type { MaintenanceJson } from '../../presenters/maintenance.js';
import type { BADGE_FORMATS } from '../../presenters/badge.js';
import type { FieldError } from '../kit/forms.js';
import type { ProjectPageView } from '../kit/views.js';
import type { CheckCharts, Timeline } from './charts.js';
import type { CheckState } from './check-state.js';
import type { EventRow } from './event-rows.js';
import type { EVENT_FILTERS, EventsQuery } from './events-query.js';
import type { PingDetails } from './ping-details.js';
import type { UsageExample } from './usage.js';
import type { BadgeChoice } from './badge-page.js';
import type { Preview } from './cron-preview.js';
import type { CheckFormValues, UNITS } from './check-form.js';
import type { WindowFormValues } from './maintenance-form.js';

/** views/check-events.eta, included by the check page and its log: one page of events, its filters and links. */
export interface EventsPartView {
  rows: EventRow[];
  /** The query string of the next page, null on the last. */
  older: string | null;
  query: EventsQuery;
  /** The live script's address (newest page, no filter), else null. */
  live: string | null;
  filters: typeof EVENT_FILTERS;
  /** The page the filters and paging links go to. */
  eventsPath: string;
  checkPath: string;
  eventsHeading: string;
  /** Whether to link the full log (on the check page, not on the log itself). */
  logLink: boolean;
}

/** views/check.eta: a check's page. */
export interface CheckView extends ProjectPageView, EventsPartView {
  can: typeof CAN;
  check: CheckDoc;
  /** The check as the API presents it (ping URL, next ping, rules). */
  json: CheckJson;
  /** The integrations it notifies. */
  channels: ChannelDoc[];
  examples: UsageExample[];
  notifications: NotificationJson[];
  /** The checks it depends on, by name. */
  parents: CheckDoc[];
  flips: FlipDoc[];
  state: CheckState;
  charts: CheckCharts;
}

/** views/check-log.eta: a check's full log, `size` pings a page. */
export interface CheckLogView extends ProjectPageView, EventsPartView {
  check: CheckDoc;
  size: number;
}

/** views/check-event-rows.eta: event rows alone, for the live script to insert. */
export interface CheckEventRowsView {
  rows: EventRow[];
  checkPath: string;
}

/** views/ping.eta: one ping's details. */
export interface PingView extends ProjectPageView {
  check: CheckDoc;
  details: PingDetails;
  checkPath: string;
}

/** views/check-edit.eta: the check editor (a new check when `check` is null), with what was typed and its error. */
export interface CheckEditView extends ProjectPageView {
  check: CheckDoc | null;
  values: CheckFormValues;
  units: typeof UNITS;
  /** The project's integrations, to tick. */
  channels: ChannelDoc[];
  /** The project's other checks, to depend on. */
  others: CheckDoc[];
  /** The next runs of a cron or OnCalendar schedule, or why it does not parse; null for a simple one. */
  preview: Preview | null;
  error: FieldError | null;
}

/** views/check-clear.eta and views/check-delete.eta: a confirmation about one check. */
export interface CheckConfirmView extends ProjectPageView {
  check: CheckDoc;
}

/** views/badges.eta: the badge picker, its choice, URL and preview. */
export interface BadgesView extends ProjectPageView {
  choice: BadgeChoice;
  checks: CheckDoc[];
  tags: string[];
  formats: typeof BADGE_FORMATS;
  url: string;
  /** The preview's path on this site. */
  preview: string;
}

/** views/maintenance.eta: the project's maintenance windows with their checks' names. */
export interface MaintenanceView extends ProjectPageView {
  can: typeof CAN;
  windows: { window: MaintenanceDoc; json: MaintenanceJson; names: string[] }[];
}

/** views/maintenance-edit.eta: a window's editor (a new one when `window` is null). */
export interface MaintenanceEditView extends ProjectPageView {
  window: MaintenanceDoc | null;
  values: WindowFormValues;
  checks: CheckDoc[];
  error: FieldError | null;
}

/** views/timeline.eta: the project's checks on one time axis. */
export interface TimelineView extends ProjectPageView {
  timeline: Timeline;
}

declare module '../kit/views.js' {
  interface PageViews {
    check: CheckView;
    'check-log': CheckLogView;
    'check-event-rows': CheckEventRowsView;
    ping: PingView;
    'check-edit': CheckEditView;
    'check-clear': CheckConfirmView;
    'check-delete': CheckConfirmView;
    badges: BadgesView;
    maintenance: MaintenanceView;
    'maintenance-edit': MaintenanceEditView;
    timeline: TimelineView;
  }
}
