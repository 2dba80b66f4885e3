/**
 * Writing flips, used by pings, the API (pause/resume) and the deadline worker.
 */
import { Flip } from '../models/flip.js';
import { notifiesOn, type FlipChange } from '../domain/status.js';

/**
 * Records a flip. Flips that never notify (new→up, paused→up, into paused or
 * new) are stored already processed (behaviour.md §2.7 rule 2, §6 rule 4).
 *
 * @param checkId - The check's UUID.
 * @param change - Old and new stored status and the reason.
 * @param at - When the status changed (for a missed deadline: the computed going-down moment).
 * @param now - When the flip is written.
 * @returns The new flip's id.
 */
export async function recordFlip(checkId: string, change: FlipChange, at: Date, now: Date): Promise<string> {
  const flip = await Flip.create({
    checkId,
    created: at,
    recorded: now,
    processed: notifiesOn(change) ? null : now,
    ...change,
  });
  return String(flip._id);
}
