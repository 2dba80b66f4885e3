/**
 * Maintenance windows on the alert path (docs/alerting-rules.md): the alerts of a check in an active window are held back (logged as skipped,
 * reason "in maintenance"), and a check held down owes one alert when the window ends: `heldUntil` is written through the check store, and its deadline job
 * moved there, before the outbox entry is pulled, so a crash in between repeats both (each idempotent) and the alert is owed exactly once
 * (shared/domain/timer-rules.ts `maintenanceEndChange`).
 */
import type { Queue } from 'bullmq';
import { changeChecks, readChecks } from '../checks/store.js';
import { maintenanceOf } from '../checks/maintenance.js';
import { scheduleDeadlines } from '../deadlines/schedule.js';
import { systemClock } from '../clock.js';
import type { CheckDoc, OutboxFlip } from '../models/check.js';
import type { DeadlinePayload } from '../queues/payloads.js';

/** An owed entry and its check, as the fan-out has them. */
interface Owed {
  check: Pick<CheckDoc, '_id' | 'projectId' | 'tags'>;
  entry: OutboxFlip;
}

/**
 * Which entries fall in an active maintenance window of their check: the window covered the check when the status changed (`entry.at`) and has not
 * ended by `now`. One read of the windows; none without entries.
 * @returns The held entries' ids, each with the end of its check's maintenance.
 * @throws the MongoDB error.
 */
export async function heldByMaintenance(owed: readonly Owed[], now: Date): Promise<Map<string, Date>> {
  const held = new Map<string, Date>();
  if (owed.length === 0) return held;
  const until = await maintenanceOf(owed.map(({ check }) => check), now);
  for (const { check, entry } of owed) {
    const end = until(check, entry.at);
    if (end && end > now) held.set(String(entry._id), end);
  }
  return held;
}

/**
 * Records that checks held down owe an alert at the end of their maintenance: `heldUntil` (the later of the stored one and `until`) on each check
 * still down, then its deadline job moved there (without a queue, the sweep adds it). The jobs' delays are counted from the system clock when
 * they are added, as BullMQ counts them: from the fan-out's `now`, the seconds a mass of holds takes to write made every job that much late.
 * @throws the MongoDB or Redis error (the entry stays owed; a retry repeats this).
 */
export async function oweAfterMaintenance(deadlines: Queue<DeadlinePayload> | undefined, held: ReadonlyMap<string, Date>): Promise<void> {
  if (held.size === 0) return;
  const applied = await changeChecks(await readChecks([...held.keys()]), (check) => {
    const until = held.get(check._id)!;
    if (check.status !== 'down' || (check.heldUntil && check.heldUntil >= until)) return { change: null, result: null };
    return { change: { set: { heldUntil: until } }, result: until };
  });
  const moved = [...applied.values()].flatMap(({ check, result }) => (result ? [{ checkId: check._id, at: result }] : []));
  if (deadlines) await scheduleDeadlines(deadlines, moved, systemClock());
}
