/**
 * The web app's 404 for an address no route has: a browser (one that prefers HTML to JSON) gets a page in the app's
 * layout with a link home, and inside a project the signed-in member sees (`/projects/<id>/…`) the project's
 * navigation too; anyone else, and every `/api/…` and `/ping/…` path, gets the JSON or plain-text 404 of
 * server/middleware/errors.ts as before.
 */
import type { RequestHandler } from 'express';
import { accessTo } from '../../../shared/services/access.js';
import { currentUser, render } from './render.js';

/** Paths whose 404 stays the API's or the Pinging API's. */
const API_PATH = /^\/(api|ping)(\/|$)/;
/** A path inside a project: its id. */
const PROJECT_PATH = /^\/projects\/([0-9a-f-]{36})\//;

/** Answers a browser's request for an unknown address with the error page (404); passes anything else on. */
export const pageNotFound: RequestHandler = async (req, res, next) => {
  if (API_PATH.test(req.path) || req.accepts(['json', 'html']) !== 'html') return next();
  const user = currentUser(res);
  const projectId = PROJECT_PATH.exec(req.path)?.[1];
  const access = user && projectId ? await accessTo(user, projectId) : null;
  if (access?.visibility === 'open') res.locals.access = { project: access.project, role: access.role };
  render(req, res, 'error', { title: 'Not found', status: 404, message: 'there is no page at this address' }, 404);
};
