/**
 * The account page (docs/web-app.md, "Account"): the password form, the user's sessions (end one, or all
 * others), their projects (leave one, never as its last owner), and closing the account: the projects the user alone
 * owns are named first and are deleted with it only when that is ticked; the password confirms.
 */
import type { Redis } from 'ioredis';
import { Router, type Request, type Response } from 'express';
import { AppError } from '../../../shared/errors.js';
import { Membership, type MembershipDoc } from '../../../shared/models/membership.js';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { User } from '../../../shared/models/user.js';
import { projectsOf, removeMember } from '../../../shared/services/members.js';
import { authenticate } from '../../../shared/services/users.js';
import { deleteProject } from '../../services/project-changes.js';
import { projectAccess, requireUser, ROLE_LABELS, accessOf } from '../kit/guard.js';
import { currentUser, render } from '../kit/render.js';
import { fieldOf, listOf, ticked } from '../kit/forms.js';
import type { UserSessions } from './sessions.js';
import type { AccountLimits } from '../kit/limits.js';
import type { Clock } from '../../../shared/clock.js';
import type { AccountView } from './views.js';

/** What a form of the account page shows again: its error beside it and what was typed. */
export type AccountPageData = Partial<Pick<AccountView, 'error' | 'displayError' | 'displayTz' | 'emailError' | 'newEmail'>>;

/** The projects whose only owner is `userId`, by name. */
async function soleOwned(userId: string): Promise<ProjectDoc[]> {
  const owned = (await Membership.find({ userId, role: 'owner' }).lean<MembershipDoc[]>()).map((m) => m.projectId);
  const others = new Set((await Membership.find({ projectId: { $in: owned }, role: 'owner', userId: { $ne: userId } }).lean<MembershipDoc[]>()).map((m) => m.projectId));
  return (await Project.find({ _id: { $in: owned.filter((id) => !others.has(id)) } }).lean<ProjectDoc[]>()).sort((a, b) => a.name.localeCompare(b.name));
}

/** Renders the account page with the user's sessions and projects, and `data` (a form's error). */
export async function accountPage(req: Request, res: Response, sessions: UserSessions, data: AccountPageData = {}, status = 200): Promise<void> {
  const userId = currentUser(res)?._id ?? '';
  const [list, projects] = await Promise.all([sessions.list(req, userId), projectsOf(userId)]);
  render(req, res, 'account', { title: 'Account', error: '', sessions: list, projects, roleLabels: ROLE_LABELS, ...data }, status);
}

/** Routes of the account page's sessions, projects and closing. */
export function accountPageRouter(sessions: UserSessions, limits: AccountLimits, redis: Redis, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.get('/account/', requireUser, (req, res) => accountPage(req, res, sessions));

  router.post('/account/sessions/end', requireUser, async (req, res) => {
    const userId = currentUser(res)?._id ?? '';
    const ended = await sessions.end(req, userId, ticked(req, 'others') ? 'others' : listOf(req, 'session'));
    req.session.notice = ended === 1 ? 'One session signed out.' : `${ended} sessions signed out.`;
    res.redirect(303, '/account/');
  });

  router.post('/projects/:projectId/leave', projectAccess('read', { leaving: true }), async (req, res) => {
    const { project } = accessOf(res);
    try {
      await removeMember(project._id, currentUser(res)?._id ?? '');
    } catch (err) {
      if (!(err instanceof AppError && err.status === 400)) throw err;
      return accountPage(req, res, sessions, { error: `You are the last owner of “${project.name}”: make someone else an owner, or delete the project.` }, 400);
    }
    req.session.notice = `You have left “${project.name}”.`;
    res.redirect(303, '/projects/');
  });

  const closePage = async (req: Request, res: Response, error = '', status = 200): Promise<void> => {
    render(req, res, 'account-close', { title: 'Close account', projects: await soleOwned(currentUser(res)?._id ?? ''), error }, status);
  };
  router.get('/account/close', requireUser, (req, res) => closePage(req, res));
  router.post('/account/close', requireUser, async (req, res) => {
    const user = currentUser(res)!;
    if (!(await limits.secondFactor(req, user._id))) return closePage(req, res, 'Too many attempts. Wait a minute, then try again.', 429);
    // An account single sign-on made has a password nobody knows: a sign-in within sudo mode's minutes stands for it.
    const password = fieldOf(req, 'password');
    const recentSso = user.ssoLinked === true && password === '' && (req.session.sudoUntil ?? 0) > clock().getTime();
    if (!recentSso && !(await authenticate(user.email, password))) {
      return closePage(req, res, user.ssoLinked ? 'The password is wrong: without one, sign in again through single sign-on, then close within minutes.' : 'The password is wrong.', 400);
    }
    const sole = await soleOwned(user._id);
    if (sole.length > 0 && !ticked(req, 'delete_projects')) return closePage(req, res, 'Tick the box to delete the projects only you own, or give them another owner first.', 400);
    // Only the projects the page named go with the account: one left to the user alone since then stops the closing.
    const named = new Set(listOf(req, 'project'));
    if (sole.some((project) => !named.has(project._id))) return closePage(req, res, 'A project has just been left to you alone: decide about it below, then close again.', 409);
    // Leave the other projects first (each keeps its other owners), then delete the named ones.
    const soleIds = new Set(sole.map((project) => project._id));
    for (const membership of await Membership.find({ userId: user._id }).lean<MembershipDoc[]>()) {
      if (soleIds.has(membership.projectId)) continue;
      try {
        await removeMember(membership.projectId, user._id);
      } catch (err) {
        if (err instanceof AppError && err.status === 400) return closePage(req, res, 'A project has just been left to you alone: decide about it below, then close again.', 409);
        throw err;
      }
    }
    for (const project of sole) await deleteProject(redis, project._id);
    await User.deleteOne({ _id: user._id });
    await sessions.end(req, user._id, 'all');
    // This request's session too, so nothing written while answering saves it again.
    await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    res.clearCookie('hc_session', { path: '/' });
    res.locals.user = undefined;
    render(req, res, 'account-closed', { title: 'Account closed', email: user.email });
  });
  return router;
}
