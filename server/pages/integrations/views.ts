/** The data of the integrations area's templates (kit/views.ts says how `PageViews` is shared). */
import type { CAN } from '../../../shared/services/members.js';
import type { ChannelDoc } from '../../../shared/models/channel.js';
import type { ChannelSettingsJson } from '../../presenters/channel.js';
import type { NotificationJson } from '../../presenters/notification.js';
import type { FieldError } from '../kit/forms.js';
import type { ProjectPageView } from '../kit/views.js';
import type { ChannelFormValues, DIRECTIONS } from './channel-form.js';
import type { ChannelFormView } from './channel-view.js';
import type { AssignedCheckRow } from './integration-checks.js';

/** What a test answered, shown beside its channel. */
export interface TestResult {
  channelId: string;
  ok: boolean;
  text: string;
}

/** An integration as the list shows it: settings masked, how many checks it is assigned to, its newest notification. */
export interface IntegrationRow {
  channel: ChannelDoc;
  json: ChannelSettingsJson;
  checks: number;
  /** The channel's own record of its last delivery attempt. */
  badge: 'ok' | 'failed' | 'never';
  /** The kind's icon, SVG markup (integration-icons.ts). */
  icon: string;
  kindLabel: string;
  last: NotificationJson | null;
}

/** views/integrations.eta: the project's integrations, the add form with what was typed, and a test's answer. */
export interface IntegrationsView extends ProjectPageView {
  can: typeof CAN;
  rows: IntegrationRow[];
  form: ChannelFormView;
  directions: typeof DIRECTIONS;
  values: ChannelFormValues;
  error: FieldError | null;
  test: TestResult | null;
  /** Whether the add form's "Assign to all existing checks" is ticked. */
  assignAll: boolean;
}

/** views/integration-edit.eta: one integration's editor. */
export interface IntegrationEditView extends ProjectPageView {
  channel: ChannelDoc;
  json: ChannelSettingsJson;
  values: ChannelFormValues;
  error: FieldError | null;
  form: ChannelFormView;
  directions: typeof DIRECTIONS;
  /** The project's checks, each on or off for this integration (views/integration-checks.eta). */
  assigned: AssignedCheckRow[];
}

/** views/integration-delete.eta: the confirmation before an integration is deleted. */
export interface IntegrationDeleteView extends ProjectPageView {
  channel: ChannelDoc;
}

declare module '../kit/views.js' {
  interface PageViews {
    integrations: IntegrationsView;
    'integration-edit': IntegrationEditView;
    'integration-delete': IntegrationDeleteView;
  }
}
