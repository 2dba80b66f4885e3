/**
 * Finding the check an accepted recipient names (behaviour.md §5 rule 1).
 */
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { Project } from '../../shared/models/project.js';
import type { EmailTarget } from '../../shared/domain/email.js';

/**
 * Looks up the check of a recipient.
 *
 * @param target - A parsed mailbox (see `parseRecipient`).
 * @returns The check, or null when it is unknown or, for the slug form,
 *   ambiguous (several checks of the project share the slug); the caller
 *   skips the recipient and still accepts the message.
 */
export async function findRecipientCheck(target: EmailTarget): Promise<CheckDoc | null> {
  if (target.kind === 'uuid') return Check.findById(target.uuid).lean<CheckDoc>();
  const project = await Project.findOne({ pingKey: target.pingKey }, { _id: 1 }).lean();
  if (!project) return null;
  const matches = await Check.find({ projectId: project._id, slug: target.slug }).limit(2).lean<CheckDoc[]>();
  return matches.length === 1 ? matches[0] : null;
}
