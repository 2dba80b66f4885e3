/**
 * A project's members (docs/web-app.md): everyone sees the list; owners invite by email (a signed link shown on the
 * page and emailed), list and revoke pending invitations, change roles and remove members. Invitation links:
 * `/invite/<token>`.
 */
import { Router, type Request, type Response } from 'express';
import { AppError } from '../../../shared/errors.js';
import { ROLES, type Role } from '../../../shared/models/membership.js';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { CAN, membersOf, removeMember, roleOf, setRole } from '../../../shared/services/members.js';
import { acceptInvitation, assertUsable, createInvitation, invitationOf, pendingInvitations, revokeInvitation } from '../../../shared/services/invitations.js';
import type { Clock } from '../../../shared/clock.js';
import type { WebOptions } from '../kit/options.js';
import { accessOf, projectAccess, requireUser, ROLE_LABELS } from '../kit/guard.js';
import { currentUser, render } from '../kit/render.js';
import { fieldOf } from '../kit/forms.js';
import { sendInvitation } from './invite-mail.js';
import type { MembersView } from './views.js';
import { confirmed, renderConfirm, type ConfirmStep } from '../kit/confirm-step.js';

/** The role chosen in a form. @throws AppError(400) for anything else. */
function roleField(req: Request): Role {
  const role = fieldOf(req, 'role');
  if (!(ROLES as readonly string[]).includes(role)) throw new AppError(400, 'choose a role: owner, read-write or read-only');
  return role as Role;
}

/** Routes of the members page and of invitation links. */
export function membersRouter(options: WebOptions, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });

  const membersPage = async (req: Request, res: Response, data: Partial<Pick<MembersView, 'invite' | 'error'>> = {}, status = 200): Promise<void> => {
    const { project, role } = accessOf(res);
    const [members, invitations] = await Promise.all([membersOf(project._id), CAN.manage(role) ? pendingInvitations(project._id, clock()) : []]);
    const self = currentUser(res)?._id;
    const view: MembersView = { title: `Members · ${project.name}`, tab: 'members', project, role, can: CAN, members, invitations, self, roleLabels: ROLE_LABELS, invite: null, error: '' };
    render(req, res, 'members', { ...view, ...data }, status);
  };
  router.get('/projects/:projectId/members/', projectAccess('read'), (req, res) => membersPage(req, res));

  router.post('/projects/:projectId/members/invite', projectAccess('manage'), async (req, res) => {
    const { project } = accessOf(res);
    const email = fieldOf(req, 'email');
    try {
      const role = roleField(req);
      const token = await createInvitation({ projectId: project._id, email, role, invitedBy: currentUser(res)?._id ?? '' }, clock(), options.secretKey);
      const link = `${options.baseUrl}/invite/${token}`;
      sendInvitation(options, email.trim().toLowerCase(), project.name, link);
      await membersPage(req, res, { invite: { email: email.trim().toLowerCase(), role: ROLE_LABELS[role], link } });
    } catch (err) {
      if (!(err instanceof AppError && err.status === 400)) throw err;
      await membersPage(req, res, { error: `${err.message}.` }, 400);
    }
  });

  router.post('/projects/:projectId/members/:userId/role', projectAccess('manage'), async (req, res) => {
    const { project } = accessOf(res);
    try {
      await setRole(project._id, String(req.params.userId), roleField(req));
    } catch (err) {
      if (!(err instanceof AppError && err.status === 400)) throw err;
      return membersPage(req, res, { error: `${err.message}.` }, 400);
    }
    req.session.notice = 'Role changed.';
    res.redirect(303, `/projects/${project._id}/members/`);
  });
  /** The confirmation of removing `:userId`. @throws AppError(404) when they are no member. */
  const removeStep = async (req: Request, res: Response): Promise<ConfirmStep> => {
    const { project } = accessOf(res);
    const member = (await membersOf(project._id)).find((m) => m.userId === String(req.params.userId));
    if (!member) throw new AppError(404, 'no such member of this project');
    const self = member.userId === currentUser(res)?._id;
    return {
      heading: self ? 'Leave this project?' : `Remove ${member.email}?`,
      text: `${self ? 'You lose' : `${member.email} loses`} access to “${project.name}”: its checks, integrations and settings. An owner can invite them again.`,
      action: `/projects/${project._id}/members/${member.userId}/remove`,
      button: self ? 'Leave the project' : 'Remove the member',
      cancel: `/projects/${project._id}/members/`,
      danger: true,
    };
  };
  router.get('/projects/:projectId/members/:userId/remove/', projectAccess('manage'), async (req, res) => {
    renderConfirm(req, res, await removeStep(req, res), { tab: 'members', ...accessOf(res) });
  });
  router.post('/projects/:projectId/members/:userId/remove', projectAccess('manage'), async (req, res) => {
    const { project } = accessOf(res);
    if (!confirmed(req)) return renderConfirm(req, res, await removeStep(req, res), { tab: 'members', ...accessOf(res) });
    try {
      await removeMember(project._id, String(req.params.userId));
    } catch (err) {
      if (!(err instanceof AppError && err.status === 400)) throw err;
      return membersPage(req, res, { error: `${err.message}.` }, 400);
    }
    req.session.notice = 'Member removed.';
    res.redirect(303, `/projects/${project._id}/members/`);
  });

  router.post('/projects/:projectId/members/invitations/:invitationId/revoke', projectAccess('manage'), async (req, res) => {
    const { project } = accessOf(res);
    await revokeInvitation(project._id, String(req.params.invitationId), clock());
    req.session.notice = 'Invitation revoked: its link works no more.';
    res.redirect(303, `/projects/${project._id}/members/`);
  });

  router.get('/invite/:token', async (req, res) => {
    const token = String(req.params.token);
    const invitation = await invitationOf(token, options.secretKey);
    // Used by signing up through it: the invited person, now signed in, goes to the project.
    const user = currentUser(res);
    if (invitation.usedAt && user?.email === invitation.email && (await roleOf(invitation.projectId, user._id))) return res.redirect(303, `/projects/${invitation.projectId}/`);
    assertUsable(invitation, clock());
    const project = await Project.findById(invitation.projectId).lean<ProjectDoc>();
    if (!project) throw new AppError(404, 'the project of this invitation has been deleted');
    render(req, res, 'invite', { title: 'Invitation', token, projectName: project.name, role: ROLE_LABELS[invitation.role] });
  });
  router.post('/invite/:token', requireUser, async (req, res) => {
    const user = currentUser(res);
    const projectId = await acceptInvitation(String(req.params.token), { _id: user?._id ?? '', email: user?.email ?? '' }, clock(), options.secretKey);
    req.session.notice = 'You have joined the project.';
    res.redirect(303, `/projects/${projectId}/`);
  });
  return router;
}
