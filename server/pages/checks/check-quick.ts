/**
 * Quick edits of a check's name, tags and (for a cron or OnCalendar check) schedule from its page, without the whole
 * editor: a small form on the check page (views/check-actions.eta) that posts to `<check>/quick`; `GET <check>/quick/`
 * is the same form on a page of its own, where a refused value comes back with the API's message beside its field.
 * Only those keys are written (an API update with just them: the zone, grace and the rest stay), so nothing else of
 * the check changes. A simple check's period stays in the editor, with its units.
 */
import type { Request, Response, Router } from 'express';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { AppError } from '../../../shared/errors.js';
import type { AppDeps } from '../../deps.js';
import { checkSchema } from '../../schemas/check.js';
import { parseBody, VALIDATION_PREFIX } from '../../schemas/parse.js';
import * as checks from '../../services/checks.js';
import { accessOf, projectAccess } from '../kit/guard.js';
import { render } from '../kit/render.js';
import { fieldOf } from '../kit/forms.js';
import { checkOfPath } from './checks.js';
import { checkName } from '../kit/check-name.js';
import { projectTags } from './editor-hints.js';
import type { ProjectPageView } from '../kit/views.js';

const ONE = '/projects/:projectId/checks/:checkId/';

/** Fields of the quick form. */
type QuickField = 'name' | 'tags' | 'schedule';

/** The quick form's values (`schedule` null for a simple check) and, when refused, the field and the API's message. */
export interface QuickEdit {
  name: string;
  tags: string;
  schedule: string | null;
  error: { field: QuickField; message: string } | null;
}

/** views/check-quick.eta: the quick form of one check, with the project's tags to complete from. */
export interface CheckQuickView extends ProjectPageView {
  check: CheckDoc;
  quick: QuickEdit;
  tagOptions: string[];
}

declare module '../kit/views.js' {
  interface PageViews {
    'check-quick': CheckQuickView;
  }
}

/** The form's values of a stored check. */
export function quickOf(check: CheckDoc): QuickEdit {
  return { name: check.name, tags: check.tags, schedule: check.kind === 'simple' ? null : check.schedule, error: null };
}

/** The project's tags, for the tag field's datalist: from the distinct `tags` values, not every check. */
export async function tagOptionsOf(projectId: string): Promise<string[]> {
  return projectTags((await Check.distinct('tags', { projectId })).filter((tags): tags is string => typeof tags === 'string'));
}

/** The form's page (status 400 with the error). */
async function quickPage(req: Request, res: Response, check: CheckDoc, quick: QuickEdit): Promise<void> {
  const tagOptions = await tagOptionsOf(check.projectId);
  render(req, res, 'check-quick', { title: `Quick edit of ${checkName(check)}`, tab: 'checks', ...accessOf(res), check, quick, tagOptions }, quick.error ? 400 : 200);
}

/** Adds the quick-edit routes (GET the form's page, POST the change) to the check actions' router. */
export function addQuickEdit(router: Router, deps: AppDeps): void {
  router.get(`${ONE}quick/`, projectAccess('write'), async (req, res) => {
    const check = await checkOfPath(req, res);
    await quickPage(req, res, check, quickOf(check));
  });
  router.post(`${ONE}quick`, projectAccess('write'), async (req, res) => {
    const check = await checkOfPath(req, res);
    // A textarea posts CR LF; a schedule is stored with `\n` line ends, as an API client sends it.
    const schedule = check.kind === 'simple' ? null : fieldOf(req, 'schedule').replace(/\r\n?/g, '\n');
    const quick: QuickEdit = { name: fieldOf(req, 'name'), tags: fieldOf(req, 'tags'), schedule, error: null };
    let input;
    try {
      input = parseBody(checkSchema, { name: quick.name, tags: quick.tags, ...(schedule === null ? {} : { schedule }) });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const message = err.message.slice(VALIDATION_PREFIX.length);
      const field = (['tags', 'schedule'] as const).find((f) => message.startsWith(f)) ?? 'name';
      return quickPage(req, res, check, { ...quick, error: { field, message } });
    }
    await checks.updateCheck(deps, check, { input, version: 3 });
    req.session.notice = schedule === null ? 'Name and tags saved.' : 'Name, tags and schedule saved.';
    res.redirect(303, `/projects/${check.projectId}/checks/${check._id}/`);
  });
}
