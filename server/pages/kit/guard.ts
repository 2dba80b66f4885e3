/**
 * Who is asking, and may they: the signed-in user from the session, and their role in the project of the path
 * (docs/web-app.md, roles table). A role too weak gets 403; no membership or a deleted project gets 404.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Clock } from '../../../shared/clock.js';
import type { ProjectDoc } from '../../../shared/models/project.js';
import type { Role } from '../../../shared/models/membership.js';
import { CAN } from '../../../shared/services/members.js';
import { accessTo } from '../../../shared/services/access.js';
import { findUser } from '../../../shared/services/users.js';
import { UUID_RE } from '../../../shared/domain/ids.js';
import { AppError } from '../../../shared/errors.js';
import { Channel } from '../../../shared/models/channel.js';
import { currentUser } from './render.js';
import { wallProject } from './wall-grant.js';

/** Sets `res.locals.user` from the session; a session of a deleted user, or from before a password change, is signed out. */
export const loadUser: RequestHandler = async (req, res, next) => {
  const userId = req.session?.userId;
  if (userId) {
    const user = await findUser(userId);
    if (user && (user.sessionEpoch ?? 0) === (req.session.epoch ?? 0)) res.locals.user = user;
    else delete req.session.userId;
  }
  next();
};

/** Sends a visitor who is not signed in to the sign-in page, coming back here afterwards. */
export const requireUser: RequestHandler = (req, res, next) => {
  if (currentUser(res)) return next();
  res.redirect(303, `/signin/?next=${encodeURIComponent(req.originalUrl)}`);
};

/** The project of the path and the user's role in it (set by {@link projectAccess}). */
export interface ProjectAccess {
  project: ProjectDoc;
  role: Role;
}

/** What {@link projectAccess} found. @throws Error when it did not run (a programming error). */
export function accessOf(res: Response): ProjectAccess {
  const access = res.locals.access as ProjectAccess | undefined;
  if (!access) throw new Error('projectAccess must run first');
  return access;
}

/** Role names as pages show them. */
export const ROLE_LABELS: Record<Role, string> = { owner: 'owner', rw: 'read-write', ro: 'read-only' };

/**
 * Requires a signed-in member of `:projectId` whose role allows `need` (shared/services/members.ts CAN); a member
 * the project is locked to (shared/services/access.ts: it requires a second factor they lack) is sent to add one (except to leave it: `leaving`). Without
 * a user, a wall display's grant for the project (server/pages/kit/wall-grant.ts) reads its checks as `ro`
 * (`res.locals.wall`).
 * @throws AppError(404) `no such project` (unknown, deleted, or not a member); AppError(403) when the role is too weak
 *   or a wall asks for more than its pages; AppError(401) when a wall's key was revoked.
 */
export function projectAccess(need: keyof typeof CAN, { leaving = false } = {}): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const user = currentUser(res);
    const projectId = String(req.params.projectId);
    const wall = user ? null : await wallProject(req, projectId, need);
    if (wall) {
      res.locals.access = { project: wall, role: 'ro' } satisfies ProjectAccess;
      res.locals.wall = true;
      next();
      return;
    }
    if (!user) {
      res.redirect(303, `/signin/?next=${encodeURIComponent(req.originalUrl)}`);
      return;
    }
    const access = UUID_RE.test(projectId) ? await accessTo(user, projectId) : null;
    if (!access) throw new AppError(404, 'no such project: it may have been deleted, or you are not a member');
    const { project, role } = access;
    if (access.visibility === 'locked' && !leaving) {
      req.session.notice = `The project “${project.name}” asks every member for a second factor: add an authenticator app (or a security key, from your account page) to open it.`;
      res.redirect(303, '/account/two-factor/totp');
      return;
    }
    // Set before the role check, so a refusal's error page keeps the project's navigation (server/pages/render.ts).
    res.locals.access = { project, role } satisfies ProjectAccess;
    // The project tabs mark Integrations while any integration's last delivery failed (the channel keeps its last error).
    if (req.method === 'GET' && !req.path.endsWith('.json')) res.locals.pageData = { ...(res.locals.pageData as object | undefined), integrationsFailing: Boolean(await Channel.exists({ projectId: project._id, lastError: { $nin: ['', null] } })) };
    if (!CAN[need](role)) throw new AppError(403, `your role in this project (${ROLE_LABELS[role]}) does not allow this`);
    next();
  };
}

/**
 * Sends a request outside sudo mode to confirm with the password or a factor, coming back to `back` (or the page it
 * came from). With `json` (an error message), a script's request gets 401 `{"error": json, "confirm": path}` instead
 * of a redirect to a page it cannot read.
 */
export function requireSudo(clock: Clock, back?: (req: Request) => string, json?: string): RequestHandler {
  return (req, res, next) => {
    if ((req.session.sudoUntil ?? 0) > clock().getTime()) return next();
    const to = back ? back(req) : req.method === 'GET' ? req.originalUrl : '/account/';
    const confirm = `/account/confirm?next=${encodeURIComponent(to)}`;
    if (json !== undefined) return void res.status(401).json({ error: json, confirm });
    res.redirect(303, confirm);
  };
}
