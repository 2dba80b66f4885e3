/**
 * The timed alerting rules (docs/alerting-rules.md): `notify_late` (a `late` alert when a check enters its grace period) and `repeat_every`
 * (reminders while it stays down). Both are timed by the check's one deadline job: the job is due at {@link wakeAt}, the earliest of the deadline and
 * the rules' next moment, and the deadline worker applies {@link ruleChange}. Pure: time is a parameter.
 */
import { liveStatus, regularGraceStart, type CheckState, type FlipChange } from './status.js';
import type { CheckDoc, RuleEvent } from '../models/check.js';

const MS_PER_SECOND = 1000;

/** The check fields the rules read. */
export type RuleState = CheckState & Pick<CheckDoc, 'deadline' | 'notifyLate' | 'repeatEvery' | 'lateFor' | 'remindAt' | 'remindN' | 'heldUntil'>;

/** An alert a rule owes: an outbox entry's status change and event (shared/models/check.ts `OutboxFlip`). */
export type RuleAlert = FlipChange & { event: RuleEvent; n?: number };

/** What {@link ruleChange} writes and owes; null when nothing is due. */
export interface RuleOutcome {
  set: Partial<CheckDoc>;
  owe: RuleAlert[];
}

/** The grace start whose `late` alert is still owed (docs/checks.md, "Deadlines"); null without `notifyLate`, outside `up`, or once owed. */
export function lateAt(check: RuleState): Date | null {
  if (!check.notifyLate || check.status !== 'up') return null;
  const start = regularGraceStart(check);
  return start && start.getTime() !== check.lateFor?.getTime() ? start : null;
}

/** When the next reminder is due: while down with `repeatEvery`; else null. */
export function remindDue(check: RuleState): Date | null {
  return check.status === 'down' && check.repeatEvery && check.remindAt ? check.remindAt : null;
}

/** The earliest of two moments, null ones left out. */
export function earliest(a: Date | null | undefined, b: Date | null | undefined): Date | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return a <= b ? a : b;
}

/** When the rules next need the deadline worker (late, reminder, or the end of a maintenance window that held a down alert); null when never. */
export function ruleWakeAt(check: RuleState): Date | null {
  return earliest(earliest(lateAt(check), remindDue(check)), check.heldUntil);
}

/**
 * When the check's deadline job must be due: its stored deadline, or a rule's moment when earlier. A check without rules pays one test.
 */
export function wakeAt(check: RuleState): Date | null {
  if (!check.notifyLate && !check.remindAt && !check.heldUntil) return check.deadline;
  return earliest(check.deadline, ruleWakeAt(check));
}

/**
 * The fields a flip into down writes for `repeat_every`: the first reminder due `repeatEvery` seconds after `now`, the count reset. Empty without the
 * rule, so a check without rules writes what it wrote before.
 */
export function downRuleFields(check: Pick<CheckDoc, 'repeatEvery'>, now: Date): Partial<CheckDoc> {
  if (!check.repeatEvery) return {};
  return { remindAt: new Date(now.getTime() + check.repeatEvery * MS_PER_SECOND), remindN: 0 };
}

/**
 * The alerts the rules owe at `now` and the fields that record them, in one write with them (exactly once):
 * - `late`: `notifyLate`, live status `grace`, and this grace period not warned yet (`lateFor` set to its start);
 * - `reminder` n: down, `repeatEvery`, `remindAt` passed; the next one `repeatEvery` seconds after it (or after `now` when the worker was late by more).
 * @returns null when nothing is due.
 */
export function ruleChange(check: RuleState, now: Date): RuleOutcome | null {
  const late = lateAt(check);
  if (late && late <= now && liveStatus(check, now) === 'grace') {
    return { set: { lateFor: late }, owe: [{ oldStatus: 'up', newStatus: 'up', reason: '', event: 'late' }] };
  }
  const remind = remindDue(check);
  if (remind && remind <= now) {
    const everyMs = check.repeatEvery! * MS_PER_SECOND;
    const next = remind.getTime() + everyMs > now.getTime() ? remind.getTime() + everyMs : now.getTime() + everyMs;
    const n = (check.remindN ?? 0) + 1;
    return { set: { remindAt: new Date(next), remindN: n }, owe: [{ oldStatus: 'down', newStatus: 'down', reason: '', event: 'reminder', n }] };
  }
  return null;
}

/**
 * The end of the maintenance holding back a check's down alert (`heldUntil`): while a window still covers the check, `heldUntil` follows that
 * window's end (a window changed or another one overlapping); once none does (its end passed, or it was shortened, deleted or no longer covers the
 * check), `heldUntil` is cleared and, if the check is still down, one `resumed` alert is owed, in the same write (exactly once).
 * @param stillUntil - Until when the check is still in maintenance at `now` (shared/domain/maintenance.ts), or null; undefined when its windows were
 * not read (the check was holding nothing when its pass read it): nothing changes then.
 * @returns null for a check holding nothing, still held until the same end, or whose windows are unknown.
 */
export function maintenanceEndChange(check: RuleState, now: Date, stillUntil: Date | null | undefined): RuleOutcome | null {
  if (!check.heldUntil || stillUntil === undefined) return null;
  if (stillUntil && stillUntil > now) return stillUntil.getTime() === check.heldUntil.getTime() ? null : { set: { heldUntil: stillUntil }, owe: [] };
  const owe: RuleAlert[] = check.status === 'down' ? [{ oldStatus: 'down', newStatus: 'down', reason: '', event: 'resumed' }] : [];
  return { set: { heldUntil: null }, owe };
}

/** Two outcomes as one write. */
export function bothChanges(a: RuleOutcome | null, b: RuleOutcome | null): RuleOutcome | null {
  if (!a || !b) return a ?? b;
  return { set: { ...a.set, ...b.set }, owe: [...a.owe, ...b.owe] };
}
