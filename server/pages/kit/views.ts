/**
 * The data each template is rendered with, named in one type per template. `PageViews` maps a template's name to its
 * type; kit/ declares its own templates' here, and each area adds its pages' in its `views.ts` with
 * `declare module '../kit/views.js' { interface PageViews { … } }`, so `render` checks every page's fields against
 * its type without kit/ importing any area. What every page gets besides (the user, the CSRF token, times) is `render`'s.
 */
import type { ProjectDoc } from '../../../shared/models/project.js';
import type { Role } from '../../../shared/models/membership.js';

/** A project page's tab in the layout's navigation. */
export type PageTab = 'checks' | 'integrations' | 'maintenance' | 'badges' | 'status' | 'members' | 'settings';

/** What the layout reads of every page: its title. */
export interface PageView {
  title: string;
}

/** A page of one project: the layout's tabs, the project and the viewer's role in it. */
export interface ProjectPageView extends PageView {
  tab: PageTab;
  project: ProjectDoc;
  role: Role;
}

/** views/error.eta: an error's status and message (a sentence without its capital). */
export interface ErrorView extends PageView {
  status: number;
  message: string;
}

/** views/link-confirm.eta: what a link from a mail asks before it acts, and the form that does it. */
export interface LinkConfirmView extends PageView {
  heading: string;
  text: string;
  /** The form's POST address. */
  action: string;
  button: string;
}

/** views/link-done.eta: what a link from a mail did. */
export interface LinkDoneView extends PageView {
  heading: string;
  text: string;
}

/** Each template's data by the template's name; areas add theirs (see the module's doc). */
export interface PageViews {
  error: ErrorView;
  'link-confirm': LinkConfirmView;
  'link-done': LinkDoneView;
}
