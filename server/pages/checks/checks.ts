/**
 * A project's checks in the browser (docs/web-app.md): the editor (every field the API accepts, cron and OnCalendar
 * preview), pause, resume and delete with a confirmation. The list is check-list.ts, a check's own page check-page.ts.
 * Writes go through the API's services (server/services/checks.ts), so the check store makes every state change.
 */
import { Router, type Request, type Response } from 'express';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { Channel, type ChannelDoc } from '../../../shared/models/channel.js';
import { AppError } from '../../../shared/errors.js';
import type { AppDeps } from '../../deps.js';
import * as checks from '../../services/checks.js';
import { accessOf, projectAccess } from '../kit/guard.js';
import { render } from '../kit/render.js';
import { inputOf, scheduleOf, serviceFieldError, submittedValues, UNITS, valuesOf, type CheckFormValues } from './check-form.js';
import { FieldError } from '../kit/forms.js';
import { previewRuns } from './cron-preview.js';
import { checkFilterOf } from '../kit/wall-checks.js';
import { projectTags, suggestedSlug, zoneNames } from './editor-hints.js';
import { checkName } from '../kit/check-name.js';

const ONE = '/projects/:projectId/checks/:checkId/';

/**
 * The path's check in the request's project, named by its UUID (by its `unique_key` for a wall display: wall-checks.ts),
 * read once per GET: the check actions' extras and then the check page share it (`res.locals.pathCheck`).
 * @throws AppError(404) `no such check` otherwise.
 */
export async function checkOfPath(req: Request, res: Response): Promise<CheckDoc> {
  const { project } = accessOf(res);
  const id = String(req.params.checkId);
  const known = res.locals.pathCheck as { id: string; check: CheckDoc } | undefined;
  if (req.method === 'GET' && known?.id === id && known.check.projectId === project._id) return known.check;
  const check = await Check.findOne({ ...checkFilterOf(res, [id]), projectId: project._id }).lean<CheckDoc>();
  if (!check) throw new AppError(404, 'no such check: it may have been deleted');
  res.locals.pathCheck = { id, check };
  return check;
}

/** Routes of the check editor, pause, resume and delete. */
export function checksRouter(deps: AppDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const sorted = async (projectId: string) => Check.find({ projectId }).sort({ created: 1 }).lean<CheckDoc[]>();

  router.get('/projects/:projectId/cron-preview', projectAccess('read'), (req, res) => {
    res.json(previewRuns(req.query.schedule, req.query.tz, deps.clock()));
  });

  const editor = async (req: Request, res: Response, check: CheckDoc | null, values: CheckFormValues, error: FieldError | null, status = 200) => {
    const { project } = accessOf(res);
    const channels = await Channel.find({ projectId: project._id }).sort({ created: 1 }).lean<ChannelDoc[]>();
    const all = await sorted(project._id);
    const others = all.filter((other) => other._id !== check?._id);
    const preview = values.kind !== 'simple' ? previewRuns(scheduleOf(values), values.tz, deps.clock()) : null;
    const title = check ? `Edit ${checkName(check)}` : 'New check';
    const hints = { tagOptions: projectTags(all.map((c) => c.tags)), zoneNames: zoneNames(), slugSuggestion: suggestedSlug(values.name, values.slug) };
    render(req, res, 'check-edit', { title, tab: 'checks', role: accessOf(res).role, project, check, values, units: UNITS, channels, others, preview, error, ...hints }, status);
  };
  const save = async (req: Request, res: Response, check: CheckDoc | null) => {
    const values = submittedValues(req);
    try {
      const write = { input: inputOf(values, check), version: 3 as const };
      const saved = check ? await checks.updateCheck(deps, check, write) : (await checks.createCheck(deps, accessOf(res).project, write)).check;
      req.session.notice = check ? 'Check saved.' : 'Check created.';
      res.redirect(303, `/projects/${saved.projectId}/checks/${saved._id}/`);
    } catch (err) {
      if (err instanceof FieldError) return editor(req, res, check, values, err, 400);
      if (err instanceof AppError && err.status === 400) return editor(req, res, check, values, serviceFieldError(err.message), 400);
      if (err instanceof AppError && err.status === 403) return editor(req, res, check, values, new FieldError('name', 'the project has reached its check limit'), 403);
      throw err;
    }
  };
  // A new check starts with every integration of the project ticked, as in the reference.
  router.get('/projects/:projectId/checks/new/', projectAccess('write'), async (req, res) => {
    const channels = await Channel.find({ projectId: accessOf(res).project._id }, { _id: 1 }).lean<Pick<ChannelDoc, '_id'>[]>();
    await editor(req, res, null, valuesOf(null, channels.map((channel) => channel._id)), null);
  });
  router.post('/projects/:projectId/checks/', projectAccess('write'), (req, res) => save(req, res, null));
  router.get(`${ONE}edit/`, projectAccess('write'), async (req, res) => {
    const check = await checkOfPath(req, res);
    await editor(req, res, check, valuesOf(check), null);
  });
  router.post(ONE, projectAccess('write'), async (req, res) => save(req, res, await checkOfPath(req, res)));

  router.post(`${ONE}pause`, projectAccess('write'), async (req, res) => {
    const check = await checks.pauseCheck(deps, await checkOfPath(req, res));
    req.session.notice = 'Check paused.';
    res.redirect(303, `/projects/${check.projectId}/checks/${check._id}/`);
  });
  router.post(`${ONE}resume`, projectAccess('write'), async (req, res) => {
    const check = await checks.resumeCheck(deps, await checkOfPath(req, res));
    req.session.notice = 'Check resumed.';
    res.redirect(303, `/projects/${check.projectId}/checks/${check._id}/`);
  });
  router.get(`${ONE}delete/`, projectAccess('write'), async (req, res) => {
    const check = await checkOfPath(req, res);
    render(req, res, 'check-delete', { title: `Delete ${checkName(check)}`, tab: 'checks', ...accessOf(res), check });
  });
  router.post(`${ONE}delete`, projectAccess('write'), async (req, res) => {
    const check = await checkOfPath(req, res);
    await checks.deleteCheck(deps, check);
    req.session.notice = `Check “${checkName(check)}” deleted.`;
    res.redirect(303, `/projects/${check.projectId}/`);
  });
  return router;
}

