/**
 * Quick edits of a check's name and tags from its page, without the whole editor: a small form on the check page
 * (views/check-actions.eta) that posts to `<check>/quick`; `GET <check>/quick/` is the same form on a page of its
 * own, where a refused value comes back with the API's message beside its field. Only `name` and `tags` are written
 * (as an API update with just those keys), so nothing else of the check changes. The schedule stays in the editor.
 */
import type { Request, Response, Router } from 'express';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { AppError } from '../../shared/errors.js';
import type { AppDeps } from '../deps.js';
import { checkSchema } from '../schemas/check.js';
import { parseBody, VALIDATION_PREFIX } from '../schemas/parse.js';
import * as checks from '../services/checks.js';
import { accessOf, projectAccess } from './guard.js';
import { render } from './render.js';
import { fieldOf } from './forms.js';
import { checkOfPath } from './checks.js';
import { checkName } from './check-name.js';
import { projectTags } from './editor-hints.js';

const ONE = '/projects/:projectId/checks/:checkId/';

/** The quick form's values and, when refused, the field and the API's message. */
export interface QuickEdit {
  name: string;
  tags: string;
  error: { field: 'name' | 'tags'; message: string } | null;
}

/** The project's tags, for the tag field's datalist. */
export async function tagOptionsOf(projectId: string): Promise<string[]> {
  return projectTags(await Check.find({ projectId }, { tags: 1 }).lean<Pick<CheckDoc, 'tags'>[]>());
}

/** The form's page (status 400 with the error). */
async function quickPage(req: Request, res: Response, check: CheckDoc, quick: QuickEdit): Promise<void> {
  const tagOptions = await tagOptionsOf(check.projectId);
  render(req, res, 'check-quick', { title: `Rename ${checkName(check)}`, tab: 'checks', ...accessOf(res), check, quick, tagOptions }, quick.error ? 400 : 200);
}

/** Adds the quick-edit routes (GET the form's page, POST the change) to the check actions' router. */
export function addQuickEdit(router: Router, deps: AppDeps): void {
  router.get(`${ONE}quick/`, projectAccess('write'), async (req, res) => {
    const check = await checkOfPath(req, res);
    await quickPage(req, res, check, { name: check.name, tags: check.tags, error: null });
  });
  router.post(`${ONE}quick`, projectAccess('write'), async (req, res) => {
    const check = await checkOfPath(req, res);
    const quick: QuickEdit = { name: fieldOf(req, 'name'), tags: fieldOf(req, 'tags'), error: null };
    let input;
    try {
      input = parseBody(checkSchema, { name: quick.name, tags: quick.tags });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const message = err.message.slice(VALIDATION_PREFIX.length);
      return quickPage(req, res, check, { ...quick, error: { field: message.startsWith('tags') ? 'tags' : 'name', message } });
    }
    await checks.updateCheck(deps, check, { input, version: 3 });
    req.session.notice = 'Name and tags saved.';
    res.redirect(303, `/projects/${check.projectId}/checks/${check._id}/`);
  });
}
