/**
 * A confirmation step for a one-click write (copying a check, removing a member): the write's POST without
 * `confirm=yes`, or a GET of its path with a trailing slash, shows a page asking for it and changes nothing; the
 * page's form posts again with `confirm=yes`. The page's script may ask in a dialog instead and send `confirm=yes` at
 * once (kit/static/app.js, `data-confirm`).
 */
import type { Request, Response } from 'express';
import { fieldOf } from './forms.js';
import { render } from './render.js';
import type { PageView, ProjectPageView } from './views.js';

/** What the confirmation page says. */
export interface ConfirmStep {
  /** The page's title and heading, a question: `Remove ann@example.org?`. */
  heading: string;
  /** What happens, in a sentence or two. */
  text: string;
  /** The write's path, posted to with `confirm=yes`. */
  action: string;
  /** The button's words: `Remove the member`. */
  button: string;
  /** Where Cancel goes. */
  cancel: string;
  /** Whether the write loses something (a red button). */
  danger?: boolean;
}

/** views/action-confirm.eta: the step, inside a project's navigation when the write is a project's. */
export type ActionConfirmView = PageView & ConfirmStep & Partial<Omit<ProjectPageView, 'title'>>;

declare module './views.js' {
  interface PageViews {
    'action-confirm': ActionConfirmView;
  }
}

/** Whether the request's form says `confirm=yes`. */
export function confirmed(req: Request): boolean {
  return fieldOf(req, 'confirm') === 'yes';
}

/** Renders the confirmation page, with the project's navigation when `data` carries `project`, `role` and `tab`. */
export function renderConfirm(req: Request, res: Response, step: ConfirmStep, data: Partial<Omit<ProjectPageView, 'title'>> = {}): void {
  render(req, res, 'action-confirm', { title: step.heading, ...data, ...step });
}
