/** The check state machine (docs/checks.md, "Status"): deadlines, live status, what a signal does. Pure: time is a parameter. */
import { nextPingAt, type ScheduleSpec } from './schedule.js';
import type { CheckDoc, StoredStatus } from '../models/check.js';
import type { FlipReason } from '../models/check.js';
import type { FlipMark } from '../models/check-rules.js';
import type { PingKind } from '../models/ping.js';

const MS_PER_SECOND = 1000;

/** Status as the API reports it (docs/checks.md, "Status"). */
export type LiveStatus = StoredStatus | 'grace';

/** What a ping asks for, before the check's state is considered. */
export type Signal = 'success' | 'start' | 'fail' | 'log' | 'ign';

/** The check fields the state machine reads. */
export type CheckState = Pick<
  CheckDoc,
  'kind' | 'timeout' | 'grace' | 'schedule' | 'tz' | 'status' | 'lastPing' | 'lastStart' | 'lastStartRid' | 'manualResume'
>;

/** A status change to record. */
export interface FlipChange {
  oldStatus: StoredStatus;
  newStatus: StoredStatus;
  reason: FlipReason;
  /** Why an alerting rule raised or held back the flip's alerts (shared/domain/rules.ts); absent when none did. */
  marks?: FlipMark[];
}

/** The result of {@link applySignal}. */
export interface SignalOutcome {
  kind: PingKind;
  /** Check fields to write (besides `n_pings` and `deadline`). */
  set: Partial<CheckDoc>;
  /** The check after the signal, for computing the next deadline. */
  next: CheckState;
  flip: FlipChange | null;
}

function specOf(check: CheckState): ScheduleSpec {
  return check.kind !== 'simple'
    ? { kind: check.kind, schedule: check.schedule, tz: check.tz }
    : { kind: 'simple', timeout: check.timeout };
}

function addSeconds(at: Date, seconds: number): Date {
  return new Date(at.getTime() + seconds * MS_PER_SECOND);
}

/** Regular grace start (docs/checks.md, "Deadlines"); null unless the check is stored `up` with a last ping. */
export function regularGraceStart(check: CheckState): Date | null {
  if (check.status !== 'up' || !check.lastPing) return null;
  return nextPingAt(specOf(check), check.lastPing);
}

/** Grace start including a run in progress (docs/checks.md, "Deadlines"), the API's `next_ping`; null if none. */
export function graceStart(check: CheckState): Date | null {
  const regular = regularGraceStart(check);
  if (check.lastStart && check.status !== 'down') {
    return regular && regular < check.lastStart ? regular : check.lastStart;
  }
  return regular;
}

/**
 * The going-down moment, "alert_after" (docs/checks.md, "Deadlines"): grace start + `grace` seconds; null when none is
 * expected (down, or new/paused with no run).
 */
export function deadlineOf(check: CheckState): Date | null {
  const start = graceStart(check);
  return start ? addSeconds(start, check.grace) : null;
}

/** The live status at `now` (docs/checks.md, "Status"); comparisons are inclusive. */
export function liveStatus(check: CheckState, now: Date): LiveStatus {
  if (check.lastStart && now >= addSeconds(check.lastStart, check.grace)) return 'down';
  if (check.status !== 'up') return check.status;
  const start = regularGraceStart(check);
  if (!start) return 'up';
  if (now >= addSeconds(start, check.grace)) return 'down';
  return now >= start ? 'grace' : 'up';
}

/** Whether a flip into `newStatus` from `oldStatus` sends notifications (docs/alerts.md, "Who gets alerted"). */
export function notifiesOn(change: FlipChange): boolean {
  if (change.newStatus === 'down') return true;
  return change.newStatus === 'up' && change.oldStatus === 'down';
}

/** What a signal (after method and body filters) and a lowercase `rid` do to a check (docs/checks.md, "What changes a check", "Runs"). */
export function applySignal(check: CheckState, signal: Signal, now: Date, rid: string | null): SignalOutcome {
  if (check.status === 'paused' && check.manualResume) return unchanged(check, 'ign');
  if (signal === 'ign' || signal === 'log') return unchanged(check, signal);
  if (signal === 'start') {
    const set = { lastStart: now, lastStartRid: rid };
    return { kind: 'start', set, next: { ...check, ...set }, flip: null };
  }

  const set: Partial<CheckDoc> = { lastPing: now, lastDurationMs: null };
  if (check.lastStart) {
    // docs/checks.md, "Runs": a matching rid (null matches null) completes the run; a fail, or a success without rid, ends it
    // unmeasured; a success with another rid belongs to another run, which stays in progress.
    if ((check.lastStartRid ?? null) === rid) {
      set.lastDurationMs = now.getTime() - check.lastStart.getTime();
      set.lastStart = null;
    } else if (signal === 'fail' || rid === null) {
      set.lastStart = null;
    }
  }

  const newStatus: StoredStatus = signal === 'success' ? 'up' : 'down';
  if (newStatus !== check.status) set.status = newStatus;
  const flip: FlipChange | null =
    newStatus === check.status
      ? null
      : { oldStatus: check.status, newStatus, reason: signal === 'fail' ? 'fail' : '' };
  return { kind: signal, set, next: { ...check, ...set }, flip };
}

function unchanged(check: CheckState, kind: PingKind): SignalOutcome {
  return { kind, set: {}, next: check, flip: null };
}
