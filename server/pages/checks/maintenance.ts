/**
 * A project's maintenance windows in the browser (docs/alerting-rules.md, "Maintenance windows"): the list (kind, times or schedule,
 * covered checks, active now), create, edit and delete for owners and read-write members; read-only members see the list.
 * Writes go through the API's service (server/services/maintenance.ts), which also releases held checks.
 */
import { Router, type Request, type Response } from 'express';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import type { MaintenanceDoc } from '../../../shared/models/maintenance.js';
import { AppError } from '../../../shared/errors.js';
import { CAN } from '../../../shared/services/members.js';
import { UUID_RE } from '../../../shared/domain/ids.js';
import type { AppDeps } from '../../deps.js';
import { presentMaintenance } from '../../presenters/maintenance.js';
import * as windows from '../../services/maintenance.js';
import { accessOf, projectAccess } from '../kit/guard.js';
import { render } from '../kit/render.js';
import { FieldError } from '../kit/forms.js';
import { submittedWindow, windowFieldError, windowInputOf, windowValuesOf, type WindowFormValues } from './maintenance-form.js';
import { checkName } from '../kit/check-name.js';

const LIST = '/projects/:projectId/maintenance/';
const ONE = `${LIST}:windowId/`;

/** The path's window in the request's project. @throws AppError(404) otherwise. */
async function windowOfPath(req: Request, res: Response): Promise<MaintenanceDoc> {
  const id = String(req.params.windowId);
  const window = UUID_RE.test(id) ? await windows.getWindow(accessOf(res).project._id, id).catch(() => null) : null;
  if (!window) throw new AppError(404, 'no such maintenance window: it may have been deleted');
  return window;
}

/** Routes of the maintenance pages. */
export function maintenanceRouter(deps: AppDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const checksOf = (projectId: string) => Check.find({ projectId }, { name: 1, tags: 1 }).sort({ created: 1 }).lean<CheckDoc[]>();

  router.get(LIST, projectAccess('read'), async (req, res) => {
    const { project, role } = accessOf(res);
    const now = deps.clock();
    const names = new Map((await checksOf(project._id)).map((c) => [c._id, checkName(c)]));
    const list = (await windows.listWindows(project._id)).map((w) => ({ window: w, json: presentMaintenance(w, now, !CAN.write(role)), names: w.checkIds.map((id) => names.get(id) ?? id) }));
    render(req, res, 'maintenance', { title: 'Maintenance', tab: 'maintenance', project, role, can: CAN, windows: list });
  });

  const editor = async (req: Request, res: Response, window: MaintenanceDoc | null, values: WindowFormValues, error: FieldError | null, status = 200) => {
    const { project, role } = accessOf(res);
    const title = window ? `Edit ${window.name || 'maintenance window'}` : 'New maintenance window';
    render(req, res, 'maintenance-edit', { title, tab: 'maintenance', project, role, window, values, checks: await checksOf(project._id), error }, status);
  };
  const save = async (req: Request, res: Response, window: MaintenanceDoc | null) => {
    const values = submittedWindow(req);
    try {
      const input = windowInputOf(values);
      if (window) await windows.updateWindow(deps, window, input);
      else await windows.createWindow(deps, accessOf(res).project._id, input);
      req.session.notice = window ? 'Maintenance window saved.' : 'Maintenance window created.';
      res.redirect(303, `/projects/${accessOf(res).project._id}/maintenance/`);
    } catch (err) {
      if (err instanceof FieldError) return editor(req, res, window, values, err, 400);
      if (err instanceof AppError && err.status === 400) return editor(req, res, window, values, windowFieldError(err.message), 400);
      throw err;
    }
  };
  router.get(`${LIST}new/`, projectAccess('write'), (req, res) => editor(req, res, null, windowValuesOf(null), null));
  router.post(LIST, projectAccess('write'), (req, res) => save(req, res, null));
  router.get(`${ONE}edit/`, projectAccess('write'), async (req, res) => {
    const window = await windowOfPath(req, res);
    await editor(req, res, window, windowValuesOf(window), null);
  });
  router.post(ONE, projectAccess('write'), async (req, res) => save(req, res, await windowOfPath(req, res)));
  router.post(`${ONE}delete`, projectAccess('write'), async (req, res) => {
    const window = await windowOfPath(req, res);
    await windows.deleteWindow(deps, window);
    req.session.notice = `Maintenance window “${window.name || window._id}” deleted.`;
    res.redirect(303, `/projects/${window.projectId}/maintenance/`);
  });
  return router;
}
