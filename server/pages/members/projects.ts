/**
 * The project list (each project's counts per status, troubled first) and a project's settings (docs/web-app.md):
 * create, rename, delete (owner, confirmed by typing the name), the ping key (read-write and owner, who may rotate it), named API keys made and revoked by the owner (sudo mode), shown once,
 * the Prometheus metrics URL (its key is a read-only API key), how many checks of the limit are used, and whether members need a second factor.
 */
import type { Redis } from 'ioredis';
import { Router, type Request, type Response } from 'express';
import { AppError } from '../../../shared/errors.js';
import { createOwnedProject } from '../../../shared/services/members.js';
import { apiKeysOf, createApiKey, revokeApiKey } from '../../../shared/services/api-keys.js';
import { CAN } from '../../../shared/services/members.js';
import type { Clock } from '../../../shared/clock.js';
import { deleteProject, MAX_PROJECT_NAME, renameProject } from '../../services/project-changes.js';
import { accessOf, projectAccess, requireSudo, requireUser, ROLE_LABELS } from '../kit/guard.js';
import { currentUser, render } from '../kit/render.js';
import { fieldOf } from '../kit/forms.js';
import { hasSecondFactor } from '../../../shared/services/second-factor.js';
import { Project } from '../../../shared/models/project.js';
import { glanceAt, projectsWithCounts, sendLive } from '../kit/glance.js';
import { UUID_RE } from '../../../shared/domain/ids.js';
import { Check } from '../../../shared/models/check.js';
import { config } from '../../../shared/config.js';
import { rotatePingKey } from '../../../shared/services/projects.js';
import type { SettingsView } from './views.js';

/** The name typed, trimmed. @throws AppError(400) when empty or too long. */
function projectName(req: Request): string {
  const name = fieldOf(req, 'name').trim();
  if (name === '' || name.length > MAX_PROJECT_NAME) throw new AppError(400, `a project needs a name of 1 to ${MAX_PROJECT_NAME} characters`);
  return name;
}

/** Routes of the project list and settings. */
export function projectsRouter(clock: Clock, redis: Redis): Router {
  const router = Router({ strict: true, caseSensitive: true });
  // API keys are sensitive: made or revoked well after signing in, the password or a factor is asked again.
  const sudo = requireSudo(clock, (req) => `/projects/${String(req.params.projectId)}/settings/`);

  const listPage = async (req: Request, res: Response, error = '', status = 200): Promise<void> => {
    const projects = await projectsWithCounts(currentUser(res)!, clock());
    render(req, res, 'projects', { title: 'Projects', projects, roleLabels: ROLE_LABELS, error }, status);
  };
  router.get('/projects/', requireUser, (req, res) => listPage(req, res));
  // The live title and favicon of the pages outside a project (static/list.js): the user's down count, 304 while unchanged.
  router.get('/projects/glance.json', requireUser, async (req, res) => {
    sendLive(req, res, { down: (await glanceAt(currentUser(res)!, clock())).down, checks: [] });
  });
  // The header's project switcher without the script: its GET form names the project to open.
  router.get('/projects/go', requireUser, (req, res) => {
    const id = typeof req.query.project === 'string' ? req.query.project : '';
    res.redirect(303, UUID_RE.test(id) ? `/projects/${id}/` : '/projects/');
  });
  router.post('/projects/', requireUser, async (req, res) => {
    let name: string;
    try {
      name = projectName(req);
    } catch (err) {
      return listPage(req, res, (err as Error).message, 400);
    }
    const { project } = await createOwnedProject(currentUser(res)?._id ?? '', name, clock());
    req.session.notice = `Project “${name}” created.`;
    res.redirect(303, `/projects/${project._id}/`);
  });

  const settingsPage = async (req: Request, res: Response, data: Partial<Pick<SettingsView, 'newKey' | 'error'>> = {}, status = 200): Promise<void> => {
    const { project, role } = accessOf(res);
    const [keys, checkCount] = await Promise.all([CAN.manage(role) ? apiKeysOf(project._id) : [], Check.countDocuments({ projectId: project._id })]);
    const metrics = config.ops.prometheusEnabled ? `${config.baseUrl}/projects/${project._id}/metrics/` : null;
    render(req, res, 'settings', { title: `Settings · ${project.name}`, tab: 'settings', project, role, can: CAN, keys, newKey: null, error: '', checkCount, metrics, ...data }, status);
  };
  router.get('/projects/:projectId/settings/', projectAccess('read'), (req, res) => settingsPage(req, res));
  router.post('/projects/:projectId/settings/name', projectAccess('manage'), async (req, res) => {
    const { project } = accessOf(res);
    let name: string;
    try {
      name = projectName(req);
    } catch (err) {
      return settingsPage(req, res, { error: (err as Error).message }, 400);
    }
    await renameProject(project._id, name);
    req.session.notice = 'Project renamed.';
    res.redirect(303, `/projects/${project._id}/settings/`);
  });
  router.post('/projects/:projectId/settings/ping-key', projectAccess('write'), async (req, res) => {
    const { project } = accessOf(res);
    await rotatePingKey(project._id);
    req.session.notice = 'New ping key made: update the slug ping URLs and ping email addresses your jobs use.';
    res.redirect(303, `/projects/${project._id}/settings/#ping-h`);
  });
  router.post('/projects/:projectId/delete', projectAccess('manage'), async (req, res) => {
    const { project } = accessOf(res);
    if (fieldOf(req, 'confirm') !== project.name) {
      return settingsPage(req, res, { error: 'Type the project’s name exactly to delete it.' }, 400);
    }
    await deleteProject(redis, project._id);
    req.session.notice = `Project “${project.name}” deleted.`;
    res.redirect(303, '/projects/');
  });

  router.post('/projects/:projectId/settings/second-factor', projectAccess('manage'), sudo, async (req, res) => {
    const { project } = accessOf(res);
    const required = fieldOf(req, 'require') === 'yes';
    if (required && !hasSecondFactor(currentUser(res)!)) {
      return settingsPage(req, res, { error: 'Add an authenticator app to your own account first (Account page): the project would shut you out.' }, 400);
    }
    await Project.updateOne({ _id: project._id }, { $set: { requireSecondFactor: required } });
    req.session.notice = required ? 'Every member now needs a second factor to open this project.' : 'Members no longer need a second factor for this project.';
    res.redirect(303, `/projects/${project._id}/settings/`);
  });

  router.post('/projects/:projectId/keys/', projectAccess('manage'), sudo, async (req, res) => {
    const { project } = accessOf(res);
    try {
      const { doc, key } = await createApiKey(project._id, fieldOf(req, 'name'), fieldOf(req, 'access') === 'ro', clock());
      await settingsPage(req, res, { newKey: { name: doc.name, key, readOnly: doc.readOnly } });
    } catch (err) {
      if (!(err instanceof AppError && err.status === 400)) throw err;
      await settingsPage(req, res, { error: `${err.message}.` }, 400);
    }
  });
  router.post('/projects/:projectId/keys/:keyId/revoke', projectAccess('manage'), sudo, async (req, res) => {
    const { project } = accessOf(res);
    await revokeApiKey(project._id, String(req.params.keyId));
    req.session.notice = 'API key revoked.';
    res.redirect(303, `/projects/${project._id}/settings/`);
  });
  return router;
}
