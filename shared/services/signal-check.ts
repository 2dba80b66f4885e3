/**
 * The check fields recording a signal depends on (behaviour.md §4.3 step 10):
 * what the hot path reads, and the guard of the conditional check write.
 */
import { Check, type CheckDoc } from '../models/check.js';

/**
 * Check fields that the outcome of a signal depends on: the state machine's
 * inputs, and what the callers' `ResolveSignal` functions read (methods, the
 * HTTP body filter and the email filters).
 */
const GUARDED_FIELDS = [
  'status', 'manualResume', 'lastPing', 'lastStart', 'lastStartRid',
  'kind', 'timeout', 'grace', 'schedule', 'tz',
  'methods', 'filterHttpBody', 'filterSubject', 'filterBody', 'filterDefaultFail', 'legacySubject',
  'startKw', 'successKw', 'failureKw',
] as const satisfies readonly (keyof CheckDoc)[];

/** The check fields recording a signal reads: the guarded ones, plus identity, count, deadline and channels (for the flip). */
export type SignalCheck = Pick<CheckDoc, '_id' | 'projectId' | 'nPings' | 'deadline' | 'channels' | (typeof GUARDED_FIELDS)[number]>;

/**
 * A projection reading just the {@link SignalCheck} fields, for callers on the
 * hot path (it leaves out `desc`, which has no size limit, and tags).
 */
export const SIGNAL_PROJECTION: Readonly<Record<keyof SignalCheck, 1>> = Object.freeze({
  _id: 1, projectId: 1, nPings: 1, deadline: 1, channels: 1,
  ...(Object.fromEntries(GUARDED_FIELDS.map((f) => [f, 1])) as Record<(typeof GUARDED_FIELDS)[number], 1>),
});

/**
 * The check as stored now, read with {@link SIGNAL_PROJECTION}.
 *
 * @returns null when the check was deleted.
 */
export function readSignalCheck(checkId: string): Promise<SignalCheck | null> {
  return Check.findById(checkId, SIGNAL_PROJECTION).lean<SignalCheck>().exec();
}

/**
 * The filter matching the check only while it is as read: same `nPings` and
 * every guarded field unchanged (a missing field matches null).
 */
export function guardOf(check: SignalCheck): Record<string, unknown> {
  const guard: Record<string, unknown> = { _id: check._id, nPings: check.nPings };
  for (const field of GUARDED_FIELDS) guard[field] = check[field] ?? null;
  return guard;
}
