/**
 * The wall display (docs/wall.md): `/wall/` is a form where one pastes a project's read-only API key; the session
 * then holds a wall grant (server/pages/wall-grant.ts) and shows that project's checks list and check pages as the
 * `ro` role, live, without an account. A read-write key is refused and never kept: a wall must not hold a key that
 * can change anything. `POST /wall/leave` ends the grant.
 */
import { Router } from 'express';
import { AppError } from '../../shared/errors.js';
import { hashApiKey } from '../../shared/services/projects.js';
import { fieldOf } from './forms.js';
import { render } from './render.js';
import { ownerOfDigest } from './wall-grant.js';

/** Longest text read as a key, characters: keys are 32; anything much longer is not one. */
const MAX_KEY_CHARS = 200;

/** The form, with `error` beside the key field (status 400) when given. */
function wallPage(req: Parameters<typeof render>[0], res: Parameters<typeof render>[1], error = ''): void {
  render(req, res, 'wall', { title: 'Wall display', error }, error ? 400 : 200);
}

/** `/wall/` (GET the form, POST a key) and `/wall/leave`. */
export function wallRouter(): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.get('/wall/', (req, res) => wallPage(req, res));
  router.post('/wall/', async (req, res) => {
    const key = fieldOf(req, 'key').trim();
    if (key === '' || key.length > MAX_KEY_CHARS) return wallPage(req, res, 'Paste a read-only API key of the project (32 characters, hcr_…).');
    const owner = await ownerOfDigest(hashApiKey(key));
    if (!owner) return wallPage(req, res, 'No project has this key: check that it was pasted whole, or make a read-only key on the project’s Settings page.');
    if (!owner.readOnly) {
      return wallPage(req, res, 'This is a read-write key: a wall display must not hold a key that can change checks. Make a read-only key on the project’s Settings page and paste that.');
    }
    req.session.wall = { projectId: owner.project._id, digest: hashApiKey(key) };
    res.redirect(303, `/projects/${owner.project._id}/`);
  });
  router.post('/wall/leave', (req, res) => {
    if (!req.session.wall) throw new AppError(400, 'this browser shows no wall display');
    delete req.session.wall;
    res.redirect(303, '/wall/');
  });
  return router;
}
