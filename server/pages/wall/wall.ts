/**
 * The wall display (docs/wall.md): `/wall/` is a form where one pastes a project's read-only API key; the session
 * then holds a wall grant (server/pages/kit/wall-grant.ts) and shows that project's checks list and check pages as the
 * `ro` role, live, without an account. A read-write key is refused and never kept: a wall must not hold a key that
 * can change anything. `GET /wall/<key id>.<signature>` opens the same grant from a signed link an owner copies from
 * `/projects/<id>/keys/<key id>/wall-link`. `POST /wall/leave` ends the grant.
 */
import { Router, type Request, type Response } from 'express';
import { ApiKey, type ApiKeyDoc } from '../../../shared/models/api-key.js';
import { AppError } from '../../../shared/errors.js';
import { hashApiKey } from '../../../shared/services/projects.js';
import { fieldOf } from '../kit/forms.js';
import { render } from '../kit/render.js';
import { accessOf, projectAccess } from '../kit/guard.js';
import type { WebOptions } from '../kit/options.js';
import { grantOfToken, openWall, ownerOfDigest, wallToken } from '../kit/wall-grant.js';

/** Longest text read as a key, characters: keys are 32; anything much longer is not one. */
const MAX_KEY_CHARS = 200;

/** The form, with `error` beside the key field (status 400) when given. */
function wallPage(req: Request, res: Response, error = ''): void {
  render(req, res, 'wall', { title: 'Wall display', error }, error ? 400 : 200);
}

/** `/wall/` (GET the form, POST a key), `/wall/<token>`, `/wall/leave`, and an owner's page of a key's wall link. */
export function wallRouter(options: WebOptions): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.get('/wall/', (req, res) => wallPage(req, res));
  router.post('/wall/', async (req, res) => {
    const key = fieldOf(req, 'key').trim();
    if (key === '' || key.length > MAX_KEY_CHARS) return wallPage(req, res, 'Paste a read-only API key of the project (32 characters, hcr_…).');
    const digest = hashApiKey(key);
    const owner = await ownerOfDigest(digest);
    if (!owner) return wallPage(req, res, 'No project has this key: check that it was pasted whole, or make a read-only key on the project’s Settings page.');
    if (!owner.readOnly) {
      return wallPage(req, res, 'This is a read-write key: a wall display must not hold a key that can change checks. Make a read-only key on the project’s Settings page and paste that.');
    }
    await openWall(req, { projectId: owner.project._id, digest });
    res.redirect(303, `/projects/${owner.project._id}/`);
  });
  router.get('/wall/:token', async (req, res) => {
    const grant = await grantOfToken(String(req.params.token), options.secretKey);
    if (!grant) throw new AppError(404, 'this wall link does not work: its key was revoked, or the link was not copied whole');
    await openWall(req, grant);
    res.redirect(303, `/projects/${grant.projectId}/`);
  });
  router.get('/projects/:projectId/keys/:keyId/wall-link', projectAccess('manage'), async (req, res) => {
    const { project, role } = accessOf(res);
    const key = await ApiKey.findOne({ _id: String(req.params.keyId), projectId: project._id, readOnly: true }).lean<ApiKeyDoc>();
    if (!key) throw new AppError(404, 'no such read-only key in this project');
    const link = `${options.baseUrl}/wall/${wallToken(project._id, key._id, options.secretKey)}`;
    render(req, res, 'wall-link', { title: `Wall link · ${project.name}`, tab: 'settings', project, role, key, link });
  });
  router.post('/wall/leave', (req, res) => {
    if (!req.session.wall) throw new AppError(400, 'this browser shows no wall display');
    delete req.session.wall;
    res.redirect(303, '/wall/');
  });
  return router;
}
