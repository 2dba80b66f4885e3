/**
 * The one place a signal is applied to a check, used by HTTP pings and inbound
 * email alike (behaviour.md §2.5, §4.3 step 10).
 *
 * MongoDB without transactions (FerretDB has none): the check is updated with
 * a conditional write on the `nPings` it was read with, so concurrent pings
 * retry instead of losing an increment; the ping gets `n` = the new `nPings`.
 */
import { Check, type CheckDoc } from '../models/check.js';
import { Ping, type PingDoc } from '../models/ping.js';
import { Project } from '../models/project.js';
import { applySignal, deadlineOf, type Signal } from '../domain/status.js';
import { recordFlip } from './flips.js';
import { scheduleDeadline } from '../queues/deadlines.js';
import type { Queues } from '../queues/index.js';
import type { Clock } from '../clock.js';
import { logger } from '../logger.js';

const log = logger.child({ module: 'signal' });

/** How many times a conflicting concurrent ping is retried. */
const MAX_ATTEMPTS = 20;

/** How often (in pings) old pings are pruned (behaviour.md §4.3 step 12). */
const PRUNE_EVERY = 100;

/** What the caller knows of the request, stored on the ping. */
export type PingMeta = Pick<PingDoc, 'scheme' | 'remoteAddr' | 'method' | 'ua' | 'body' | 'exitStatus' | 'rid'>;

/** Dependencies of {@link recordSignal}. */
export interface SignalDeps {
  clock: Clock;
  queues: Queues;
}

/** Turns the check as read into the action to apply (methods and keyword filters). */
export type ResolveSignal = (check: CheckDoc) => Signal;

/**
 * Applies a signal and logs the ping.
 *
 * @param check - The check as already read by the caller (saves a read on the hot path).
 * @param resolve - Maps the check to the action; called again if a concurrent write forces a re-read.
 * @param meta - Request data stored on the ping.
 * @returns The ping's `n`, or null when the check was deleted meanwhile.
 */
export async function recordSignal(
  deps: SignalDeps,
  check: CheckDoc,
  resolve: ResolveSignal,
  meta: PingMeta,
): Promise<number | null> {
  let current: CheckDoc | null = check;
  for (let attempt = 0; attempt < MAX_ATTEMPTS && current; attempt++) {
    const now = deps.clock();
    const outcome = applySignal(current, resolve(current), now, meta.rid);
    const deadline = deadlineOf(outcome.next);
    const n = current.nPings + 1;
    const res = await Check.updateOne(
      { _id: current._id, nPings: current.nPings },
      { $set: { ...outcome.set, deadline }, $inc: { nPings: 1 } },
    );
    if (res.matchedCount === 1) {
      await Ping.create({ checkId: current._id, n, created: now, kind: outcome.kind, ...meta });
      if (outcome.flip) await recordFlip(deps.queues, current._id, outcome.flip, now, now);
      if (deadline && deadline.getTime() !== current.deadline?.getTime()) {
        await scheduleDeadline(deps.queues.deadlines, current._id, deadline, now).catch((err: unknown) =>
          log.error({ err, checkId: current?._id }, 'cannot schedule deadline; the sweep will'),
        );
      }
      if (n % PRUNE_EVERY === 0) await prunePings(current, n);
      return n;
    }
    current = await Check.findById(current._id).lean<CheckDoc>();
  }
  if (current) throw new Error(`too many concurrent pings for check ${current._id}`);
  return null;
}

/**
 * Deletes pings outside the project's ping log window (behaviour.md §4.3 step 12).
 *
 * @param n - The newest ping's number.
 */
async function prunePings(check: CheckDoc, n: number): Promise<void> {
  const project = await Project.findById(check.projectId, { pingLogLimit: 1 }).lean();
  if (!project) return;
  await Ping.deleteMany({ checkId: check._id, n: { $lte: n - project.pingLogLimit } });
}
