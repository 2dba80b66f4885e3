/** Finding the check an accepted recipient names (docs/email-pings.md, "Addresses"). */
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { Project } from '../../shared/models/project.js';
import type { EmailTarget } from '../../shared/domain/email.js';

/** The check a recipient names; null when unknown or an ambiguous slug (the caller skips it, still accepting the mail). */
export async function findRecipientCheck(target: EmailTarget): Promise<CheckDoc | null> {
  if (target.kind === 'uuid') return Check.findById(target.uuid).lean<CheckDoc>();
  const project = await Project.findOne({ pingKey: target.pingKey }, { _id: 1 }).lean();
  if (!project) return null;
  const matches = await Check.find({ projectId: project._id, slug: target.slug }).limit(2).lean<CheckDoc[]>();
  return matches.length === 1 ? matches[0] : null;
}
