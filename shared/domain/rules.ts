/**
 * The ping-side alerting rules (docs/alerting-rules.md: failure threshold, too fast, too often), layered over {@link applySignal}. Pure: time is a parameter.
 * - `minDuration`: a success whose run, measured from its start as `last_duration` is, is shorter becomes a failure ("too fast").
 * - `minInterval`: a success arriving sooner than this after the previous success signal becomes a failure ("too often").
 * - `failThreshold`/`failWindow`: a failure flips the check down only as the n-th in a row (or the n-th within the window); below it the status
 *   stays up (a success would set it) and the ping is still logged as a failure. A check already down stays down.
 * A missed deadline is not a signal: it flips at once whatever the threshold (shared/deadlines/process.ts).
 */
import { applySignal, type CheckState, type FlipChange, type Signal, type SignalOutcome } from './status.js';
import type { CheckDoc, StoredStatus } from '../models/check.js';
import type { CheckRules, FlipMark } from '../models/check-rules.js';

const MS_PER_SECOND = 1000;

/** Upper bound of the rules' durations (`fail_window`, `min_duration`, `min_interval`), seconds: a year, as `timeout`. */
export const MAX_RULE_SECONDS = 31_536_000;

/** The check fields the rules read, besides the state machine's. */
export type RuledState = CheckState & Pick<CheckRules, 'failThreshold' | 'failWindow' | 'minDuration' | 'minInterval' | 'failRun' | 'lastSuccess'>;

/** Whether any ping-side rule is on; a check without one takes {@link applySignal}'s path unchanged. */
export function hasPingRules(check: RuledState): boolean {
  return (check.failThreshold ?? 1) > 1 || check.minDuration != null || check.minInterval != null;
}

/** Why a success is judged a failure: too fast, too often, both or neither; `set` keeps the last success's arrival. */
function judgeSuccess(check: RuledState, outcome: SignalOutcome, now: Date): { marks: FlipMark[]; set: Partial<CheckDoc> } {
  const marks: FlipMark[] = [];
  const duration = outcome.set.lastDurationMs;
  if (check.minDuration != null && duration != null && duration < check.minDuration * MS_PER_SECOND) marks.push('too_fast');
  if (check.minInterval == null) return { marks, set: {} };
  const since = check.lastSuccess ? now.getTime() - check.lastSuccess.getTime() : null;
  if (since !== null && since < check.minInterval * MS_PER_SECOND) marks.push('too_often');
  return { marks, set: { lastSuccess: now } };
}

/** Where a failure leaves the check: down as the n-th failure (or when already down), else up with the failure counted. */
function countFailure(check: RuledState, now: Date): { status: StoredStatus; marks: FlipMark[]; failRun: Date[] | null } {
  const threshold = check.failThreshold ?? 1;
  if (check.status === 'down' || threshold <= 1) return { status: 'down', marks: [], failRun: null };
  const windowMs = check.failWindow != null ? check.failWindow * MS_PER_SECOND : null;
  const earlier = (check.failRun ?? []).filter((at) => windowMs === null || now.getTime() - at.getTime() < windowMs);
  const run = [...earlier, now];
  if (run.length >= threshold) return { status: 'down', marks: ['threshold'], failRun: [] };
  return { status: 'up', marks: [], failRun: run };
}

/**
 * {@link applySignal} with the check's ping-side rules applied; for a check without rules, exactly {@link applySignal}.
 *
 * @param rid - The ping's lowercase run id, null when none.
 * @returns The outcome: its `kind` is `fail` for a success judged a failure; its flip carries the rules' `marks`.
 */
export function applyRules(check: RuledState, signal: Signal, now: Date, rid: string | null): SignalOutcome {
  const outcome = applySignal(check, signal, now, rid);
  if (!hasPingRules(check) || (outcome.kind !== 'success' && outcome.kind !== 'fail')) return outcome;
  const set = { ...outcome.set };
  delete set.status;
  const judged = outcome.kind === 'success' ? judgeSuccess(check, outcome, now) : { marks: [], set: {} };
  Object.assign(set, judged.set);
  const failed = outcome.kind === 'fail' || judged.marks.length > 0;
  let newStatus: StoredStatus = 'up';
  const marks = [...judged.marks];
  if (failed) {
    const counted = countFailure(check, now);
    newStatus = counted.status;
    marks.push(...counted.marks);
    if (counted.failRun !== null) set.failRun = counted.failRun;
  } else if ((check.failThreshold ?? 1) > 1 && check.failWindow == null && (check.failRun?.length ?? 0) > 0) {
    set.failRun = [];
  }
  if (newStatus !== check.status) set.status = newStatus;
  const flip: FlipChange | null =
    newStatus === check.status
      ? null
      : { oldStatus: check.status, newStatus, reason: newStatus === 'down' ? 'fail' : '', ...(marks.length > 0 ? { marks } : {}) };
  return { kind: failed ? 'fail' : 'success', set, next: { ...check, ...set }, flip };
}
