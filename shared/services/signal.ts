/**
 * The one place a signal is applied to a check, used by HTTP pings and inbound
 * email alike (behaviour.md §2.5, §4.3 steps 10 and 12).
 *
 * MongoDB without transactions (FerretDB has none): the check is updated with
 * a conditional write on `nPings` and on every field the outcome was computed
 * from. A concurrent ping, a pause, an API update or the deadline worker's
 * write between our read and our write makes the write miss; we re-read and
 * retry, so no increment is lost and no transition is computed from a stale
 * status. The ping gets `n` = the new `nPings`.
 */
import { Check, type CheckDoc } from '../models/check.js';
import { Ping, type PingDoc } from '../models/ping.js';
import { Flip } from '../models/flip.js';
import { Project } from '../models/project.js';
import { applySignal, deadlineOf, type Signal } from '../domain/status.js';
import { recordFlip } from './flips.js';
import { scheduleDeadline } from '../queues/deadlines.js';
import type { Queues } from '../queues/index.js';
import type { Clock } from '../clock.js';
import { logger } from '../logger.js';

const log = logger.child({ module: 'signal' });

/** How many times a write that lost to a concurrent one is retried. */
const MAX_ATTEMPTS = 50;

/** How often (in pings) old pings are pruned (behaviour.md §4.3 step 12). */
const PRUNE_EVERY = 100;

/** Flips are kept at least this long, in milliseconds (behaviour.md §4.3 step 12: 93 days). */
const FLIP_RETENTION_MS = 93 * 24 * 3600 * 1000;

/**
 * Check fields that the outcome of a signal depends on: the state machine's
 * inputs and what a {@link ResolveSignal} reads (methods, body and email filters).
 */
const GUARDED_FIELDS = [
  'status', 'manualResume', 'lastPing', 'lastStart', 'lastStartRid',
  'kind', 'timeout', 'grace', 'schedule', 'tz',
  'methods', 'filterHttpBody', 'filterSubject', 'filterBody', 'filterDefaultFail', 'legacySubject',
  'startKw', 'successKw', 'failureKw',
] as const satisfies readonly (keyof CheckDoc)[];

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
 * Applies a signal and logs the ping (behaviour.md §4.3 step 10): updates the
 * check, adds 1 to `nPings`, stores the ping with `n` = the new `nPings`,
 * records a flip when the stored status changes, schedules the deadline job,
 * and prunes every 100th ping.
 *
 * @param deps - Clock and queues.
 * @param check - The check as already read by the caller (saves a read on the hot path).
 * @param resolve - Maps the check to the action; called again if a concurrent write forces a re-read.
 * @param meta - Request data stored on the ping.
 * @returns The ping's `n`, or null when the check was deleted meanwhile.
 * @throws Error after {@link MAX_ATTEMPTS} lost races, or the driver's error when MongoDB fails.
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
    const res = await Check.updateOne(guardOf(current), {
      $set: { ...outcome.set, deadline },
      $inc: { nPings: 1 },
    });
    if (res.matchedCount === 1) {
      const checkId = current._id;
      await Ping.create({ checkId, n, created: now, kind: outcome.kind, ...meta });
      if (outcome.flip) await recordFlip(deps.queues, checkId, outcome.flip, now, now);
      if (deadline && deadline.getTime() !== current.deadline?.getTime()) {
        await scheduleDeadline(deps.queues.deadlines, checkId, deadline, now).catch((err: unknown) =>
          log.error({ err, checkId }, 'cannot schedule deadline; the sweep will'),
        );
      }
      if (n % PRUNE_EVERY === 0) {
        await prune(current, n, now).catch((err: unknown) => log.error({ err, checkId }, 'cannot prune'));
      }
      return n;
    }
    current = await Check.findById(current._id).lean<CheckDoc>();
  }
  if (current) throw new Error(`too many concurrent writes to check ${current._id}`);
  return null;
}

/** The filter matching the check only while it is as read (a missing field matches null). */
function guardOf(check: CheckDoc): Record<string, unknown> {
  const guard: Record<string, unknown> = { _id: check._id, nPings: check.nPings };
  for (const field of GUARDED_FIELDS) guard[field] = check[field] ?? null;
  return guard;
}

/**
 * Deletes pings outside the project's ping log window, then flips older than
 * both the oldest remaining ping and 93 days (behaviour.md §4.3 step 12).
 *
 * @param n - The newest ping's number.
 * @param now - The newest ping's time.
 */
async function prune(check: CheckDoc, n: number, now: Date): Promise<void> {
  const project = await Project.findById(check.projectId, { pingLogLimit: 1 }).lean();
  if (!project) return;
  await Ping.deleteMany({ checkId: check._id, n: { $lte: n - project.pingLogLimit } });
  const oldest = await Ping.findOne({ checkId: check._id }, { created: 1 }).sort({ n: 1 }).lean();
  const horizon = new Date(now.getTime() - FLIP_RETENTION_MS);
  const cutoff = oldest && oldest.created < horizon ? oldest.created : horizon;
  await Flip.deleteMany({ checkId: check._id, created: { $lt: cutoff } });
}
