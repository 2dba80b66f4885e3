/**
 * Which checks alert through an integration, switched from its edit page (docs/web-app.md, Integrations): one form per
 * check (on or off) and "All" / "None" forms, so it works without the page's script. Writes go through
 * shared/services/channels.ts assignChannel, which writes each check through the check store's version-guarded writer.
 */
import { Router, type Request, type Response } from 'express';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { Channel, type ChannelDoc } from '../../../shared/models/channel.js';
import { AppError } from '../../../shared/errors.js';
import { UUID_RE } from '../../../shared/domain/ids.js';
import { assignChannel } from '../../../shared/services/channels.js';
import { accessOf, projectAccess } from '../kit/guard.js';
import { fieldOf } from '../kit/forms.js';

/** One check of the project as the integration's page lists it. */
export interface AssignedCheckRow {
  id: string;
  /** The check's name, or `unnamed`. */
  name: string;
  tags: string;
  /** Whether the check alerts through the integration. */
  on: boolean;
}

/** The project's checks, oldest first, each with whether `channel` is assigned to it. */
export async function assignedChecks(channel: Pick<ChannelDoc, '_id' | 'projectId'>): Promise<AssignedCheckRow[]> {
  const checks = await Check.find({ projectId: channel.projectId }, { name: 1, tags: 1, channels: 1 }).sort({ created: 1, _id: 1 }).lean<Pick<CheckDoc, '_id' | 'name' | 'tags' | 'channels'>[]>();
  return checks.map((check) => ({ id: check._id, name: check.name || 'unnamed', tags: check.tags, on: check.channels.includes(channel._id) }));
}

/** The path's channel in the request's project. @throws AppError(404) `no such integration` otherwise. */
async function channelOfPath(req: Request, res: Response): Promise<ChannelDoc> {
  const id = String(req.params.channelId);
  const channel = UUID_RE.test(id) ? await Channel.findOne({ _id: id, projectId: accessOf(res).project._id }).lean<ChannelDoc>() : null;
  if (!channel) throw new AppError(404, 'no such integration: it may have been deleted');
  return channel;
}

/**
 * `POST /projects/<id>/integrations/<id>/checks`: `which=all` or `which=none` switches every check of the project,
 * `check=<uuid>` with `on=1` or `on=0` one check; then back to the edit page's list of checks.
 * @throws AppError(400) for any other form; AppError(404) for a check not in the project.
 */
export function integrationChecksRouter(): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.post('/projects/:projectId/integrations/:channelId/checks', projectAccess('write'), async (req, res) => {
    const channel = await channelOfPath(req, res);
    const which = fieldOf(req, 'which');
    const checkId = fieldOf(req, 'check');
    const on = fieldOf(req, 'on');
    if (which === 'all' || which === 'none') {
      const changed = await assignChannel(channel, 'all', which === 'all');
      req.session.notice = which === 'all' ? `Every check now alerts through this integration (${changed} changed).` : `No check alerts through this integration now (${changed} changed).`;
    } else if (UUID_RE.test(checkId) && (on === '1' || on === '0')) {
      if (!(await Check.exists({ _id: checkId, projectId: channel.projectId }))) throw new AppError(404, 'no such check: it may have been deleted');
      await assignChannel(channel, [checkId], on === '1');
    } else {
      throw new AppError(400, 'choose a check and on or off, or all or none');
    }
    res.redirect(303, `/projects/${channel.projectId}/integrations/${channel._id}/edit/#checks`);
  });
  return router;
}
