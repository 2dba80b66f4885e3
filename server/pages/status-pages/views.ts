/** The data of the status pages area's templates (kit/views.ts says how `PageViews` is shared). */
import type { CAN } from '../../../shared/services/members.js';
import type { CheckDoc } from '../../../shared/models/check.js';
import type { StatusPageDoc } from '../../../shared/models/status-page.js';
import type { IncidentDoc, IncidentStage, INCIDENT_STAGES } from '../../../shared/models/incident.js';
import type { FieldError } from '../kit/forms.js';
import type { ProjectPageView } from '../kit/views.js';
import type { SectionValues, SettingsValues } from './status-page-form.js';

/** An incident form as typed. */
export interface IncidentValues {
  title: string;
  stage: IncidentStage;
  text: string;
}

/** views/status-pages.eta: the project's status pages. */
export interface StatusPagesView extends ProjectPageView {
  can: typeof CAN;
  pages: StatusPageDoc[];
}

/** views/status-edit.eta: a status page's editor (a new one when `page` is null), with what was typed and its error. */
export interface StatusEditView extends ProjectPageView {
  page: StatusPageDoc | null;
  values: SettingsValues;
  /** The sections as typed, with a blank one to add. */
  rows: SectionValues[];
  /** The project's checks by name, to pick components from. */
  checks: CheckDoc[];
  error: FieldError | null;
}

/** views/status-incidents.eta: a status page's incidents, newest first, and the form with what was typed. */
export interface StatusIncidentsView extends ProjectPageView {
  page: StatusPageDoc;
  incidents: IncidentDoc[];
  stages: typeof INCIDENT_STAGES;
  values: IncidentValues | null;
  error: FieldError | null;
}

declare module '../kit/views.js' {
  interface PageViews {
    'status-pages': StatusPagesView;
    'status-edit': StatusEditView;
    'status-incidents': StatusIncidentsView;
  }
}
