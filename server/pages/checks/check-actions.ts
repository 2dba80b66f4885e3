/**
 * A check's actions beyond edit, pause and delete (the reference's check details page): Ping now (a real ping through the Pinging API's path,
 * server/ping/service.ts), Create a copy, Transfer to another project, Clear events (after a confirmation page), and the check's ping email
 * address. Read-write members and owners only; every write goes through server/services/checks.ts and the check store.
 */
import { Router, type Request, type Response } from 'express';
import type { CheckDoc } from '../../../shared/models/check.js';
import type { ProjectDoc } from '../../../shared/models/project.js';
import { AppError } from '../../../shared/errors.js';
import { CAN } from '../../../shared/services/members.js';
import { accessTo, projectsSeenBy } from '../../../shared/services/access.js';
import { UUID_RE } from '../../../shared/domain/ids.js';
import { checkEmailAddress } from '../../../shared/domain/email.js';
import { slugify } from '../../../shared/domain/slug.js';
import { config } from '../../../shared/config.js';
import { recordPings, type PingItem } from '../../../shared/pings/record.js';
import { proxyOf, type AppDeps } from '../../deps.js';
import { handlePing } from '../../ping/service.js';
import { clientAddressOf, schemeOf } from '../../proxy.js';
import * as checks from '../../services/checks.js';
import { accessOf, projectAccess, ROLE_LABELS } from '../kit/guard.js';
import { currentUser, render } from '../kit/render.js';
import { inputOf, valuesOf } from './check-form.js';
import { FieldError, fieldOf } from '../kit/forms.js';
import { emailExample } from './usage.js';
import { checkOfPath } from './checks.js';
import { confirmed, renderConfirm, type ConfirmStep } from '../kit/confirm-step.js';
import { addQuickEdit, quickOf, tagOptionsOf, type QuickEdit } from './check-quick.js';
import { checkName } from '../kit/check-name.js';

const ONE = '/projects/:projectId/checks/:checkId/';

/**
 * What views/check-actions.eta shows: the projects a check may move to, its ping email address and that address's example, and the quick
 * edit's values with the project's tags for its tag field.
 */
export interface CheckActionsView {
  targets: { id: string; name: string }[];
  quick: QuickEdit;
  tagOptions: string[];
  email: string;
  emailExample: { id: string; label: string; code: string };
}

/** The check's page. */
function pageOf(check: CheckDoc): string {
  return `/projects/${check.projectId}/checks/${check._id}/`;
}

/**
 * The project a check is moved to, from the form's `project`: one the user may see (shared/services/access.ts) and write to.
 * @throws AppError(400) when none or the check's own is chosen; AppError(403) when the user may not write to it (or
 *   is no member of it), or it needs a second factor the user lacks.
 */
async function targetOf(req: Request, res: Response, check: CheckDoc): Promise<ProjectDoc> {
  const id = fieldOf(req, 'project');
  if (id === check.projectId) throw new AppError(400, 'the check is already in this project: choose another one');
  const access = UUID_RE.test(id) ? await accessTo(currentUser(res)!, id) : null;
  if (access?.visibility === 'locked') throw new AppError(403, 'that project asks every member for a second factor: add one to your account before moving checks into it');
  if (!access || !CAN.write(access.role)) throw new AppError(403, `you may not add checks to that project${access ? ` (your role there: ${ROLE_LABELS[access.role]})` : ''}: choose one where you are read-write or owner`);
  return access.project;
}

/** Routes of the check actions; registered before the check page, whose view gets {@link CheckActionsView} as `it.actions`. */
export function checkActionsRouter(deps: AppDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const proxy = proxyOf(deps);

  // The check page's extras, for read-write members: set here and passed to the view by render() (res.locals.pageData), then the page's route runs.
  // Only a check's own path: `checks/new/` and the like belong to the editor's routes.
  router.get(ONE, (req, _res, next) => next(UUID_RE.test(String(req.params.checkId)) ? undefined : 'route'), projectAccess('read'), async (req, res, next) => {
    const { project, role } = accessOf(res);
    const check = await checkOfPath(req, res);
    res.locals.checkTz = check.tz;
    if (CAN.write(role)) {
      const targets = (await projectsSeenBy(currentUser(res)!)).open
        .filter((m) => CAN.write(m.role) && m.project._id !== project._id)
        .map((m) => ({ id: m.project._id, name: m.project.name || 'Unnamed project' }));
      const email = checkEmailAddress(check._id, config.pingEmailDomain);
      const tagOptions = await tagOptionsOf(project._id);
      res.locals.pageData = { actions: { targets, quick: quickOf(check), tagOptions, email, emailExample: emailExample(email) } satisfies CheckActionsView };
    }
    next();
  });

  addQuickEdit(router, deps);

  router.post(`${ONE}ping`, projectAccess('write'), async (req, res) => {
    const check = await checkOfPath(req, res);
    const user = currentUser(res)!;
    const meta = { scheme: schemeOf(req, proxy), remoteAddr: clientAddressOf(req, proxy), method: 'POST', ua: `hc-monitor web app (user ${user._id})`, body: null };
    const pingDeps = { ...deps, journal: undefined, record: async (item: PingItem) => (await recordPings(deps, [item]))[0] };
    await handlePing(pingDeps, { target: { by: 'uuid', uuid: check._id }, action: 'success', exitStatus: null, rid: undefined, create: false, meta });
    req.session.notice = 'Ping sent: it is in the check\u2019s log as any other ping.';
    res.redirect(303, pageOf(check));
  });

  const copyStep = (check: CheckDoc): ConfirmStep => ({
    heading: `Copy “${checkName(check)}”?`,
    text: 'A new check is made with the same settings, schedule, tags and integrations, and a ping URL of its own; it starts new, with no pings.',
    action: `${pageOf(check)}copy`,
    button: 'Create the copy',
    cancel: pageOf(check),
  });
  router.get(`${ONE}copy/`, projectAccess('write'), async (req, res) => {
    renderConfirm(req, res, copyStep(await checkOfPath(req, res)), { tab: 'checks', ...accessOf(res) });
  });
  router.post(`${ONE}copy`, projectAccess('write'), async (req, res) => {
    const check = await checkOfPath(req, res);
    if (!confirmed(req)) return renderConfirm(req, res, copyStep(check), { tab: 'checks', ...accessOf(res) });
    const name = `${checkName(check)} (copy)`;
    let input;
    try {
      input = inputOf({ ...valuesOf(check), name, slug: check.slug ? slugify(name) : '' }, null);
    } catch (err) {
      if (err instanceof FieldError) throw new AppError(400, `the copy cannot be made: ${err.message}`);
      throw err;
    }
    try {
      const { check: copy } = await checks.createCheck(deps, accessOf(res).project, { input, version: 3 });
      req.session.notice = `Copy created: “${copy.name}”.`;
      res.redirect(303, pageOf(copy));
    } catch (err) {
      if (err instanceof AppError && err.status === 403) throw new AppError(403, 'the project has reached its check limit: delete a check before copying one');
      throw err;
    }
  });

  router.post(`${ONE}transfer`, projectAccess('write'), async (req, res) => {
    const check = await checkOfPath(req, res);
    const target = await targetOf(req, res, check);
    const moved = await checks.transferCheck(deps, check, target);
    req.session.notice = `Check moved to “${target.name || 'Unnamed project'}”; its integrations there are to be chosen again.`;
    res.redirect(303, pageOf(moved));
  });

  router.get(`${ONE}clear/`, projectAccess('write'), async (req, res) => {
    const check = await checkOfPath(req, res);
    render(req, res, 'check-clear', { title: `Clear events of ${checkName(check)}`, tab: 'checks', ...accessOf(res), check });
  });
  router.post(`${ONE}clear`, projectAccess('write'), async (req, res) => {
    const check = await checkOfPath(req, res);
    await checks.clearCheckEvents(check);
    req.session.notice = 'Events cleared: the check\u2019s pings, status changes and notifications are deleted.';
    res.redirect(303, pageOf(check));
  });
  return router;
}

