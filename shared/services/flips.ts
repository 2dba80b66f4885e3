/**
 * Writing flips, used by pings, the API (pause/resume) and the deadline worker.
 */
import type { JobsOptions } from 'bullmq';
import { Flip } from '../models/flip.js';
import type { CheckDoc } from '../models/check.js';
import { notifiesOn, type FlipChange } from '../domain/status.js';
import type { Queues } from '../queues/index.js';
import { logger } from '../logger.js';

const log = logger.child({ module: 'flips' });

/** The job id of a flip's fan-out job; deterministic so a retry never enqueues twice. */
export function flipJobId(flipId: string): string {
  return `flip-${flipId}`;
}

/**
 * Options of a flip's fan-out job: its deterministic id, and retries with
 * exponential backoff (the fan-out claims the flip first, so a job that
 * failed for good would leave the flip processed and its alerts unsent).
 */
export function flipJobOptions(flipId: string): JobsOptions {
  return {
    jobId: flipJobId(flipId),
    attempts: 5,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: 1000,
  };
}

/**
 * Records a flip. Flips that never notify (new→up, paused→up, into paused or
 * new; behaviour.md §2.7 rule 2, §6 rule 4), and flips of a check with no
 * channels, are stored already processed; the others get a `flips` job. If
 * Redis is away the flip stays unprocessed and the worker's sweep enqueues it later.
 *
 * @param queues - Where the fan-out job goes.
 * @param check - The check's UUID and its channels as read.
 * @param change - Old and new stored status and the reason.
 * @param at - When the status changed (for a missed deadline: the computed going-down moment).
 * @param now - When the flip is written.
 * @returns The new flip's id.
 */
export async function recordFlip(
  queues: Pick<Queues, 'flips'>,
  check: Pick<CheckDoc, '_id' | 'channels'>,
  change: FlipChange,
  at: Date,
  now: Date,
): Promise<string> {
  const flip = await Flip.create({
    checkId: check._id,
    created: at,
    recorded: now,
    processed: notifiesOn(change) && check.channels.length > 0 ? null : now,
    ...change,
  });
  const flipId = String(flip._id);
  if (flip.processed === null) {
    await queues.flips
      .add('flip', { flipId }, flipJobOptions(flipId))
      .catch((err: unknown) => log.error({ err, flipId }, 'cannot enqueue flip; the sweep will'));
  }
  return flipId;
}
