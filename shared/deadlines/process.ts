/**
 * The deadline path: when a check's deadline job fires, re-read the check (MongoDB is the truth) and, where it really is past its deadline, store
 * `down` with its timeout flip owed in the same write (docs/checks.md, "What changes a check", "Deadlines"), then complete the flip (shared/alerts/outbox.ts) and
 * send its alerts' first attempts (shared/alerts/first-attempt.ts). A job due early, twice, or after a newer ping never flips wrongly: the store
 * computes from the check as stored.
 *
 * Deadlines due together are applied together: a batch of jobs also takes every other check already due (the `deadline` index), one such pass at a
 * time per process, so a thousand checks due in one instant go down in one pass, and their own jobs find them settled. The same for the checks a
 * maintenance window's end releases (the `heldUntil` index), when the batch holds one of them.
 *
 * Crash points: after the down write, the job's retry (or the sweep) finds the check down with its entry still owed and completes it.
 */
import { randomUUID } from 'node:crypto';
import DataLoader from 'dataloader';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { deadlineOf, liveStatus } from '../domain/status.js';
import { bothChanges, downRuleFields, earliest, maintenanceEndChange, ruleChange, ruleWakeAt } from '../domain/timer-rules.js';
import { maintenanceOf } from '../checks/maintenance.js';
import { changeChecks, owedFlip, pullOwed, readChecks, readDue, readHeldDue, type Compute } from '../checks/store.js';
import type { CheckDoc } from '../models/check.js';
import { fanOut } from '../alerts/outbox.js';
import { sendFirstAttempts } from '../alerts/first-attempt.js';
import { leaseMsOf } from '../alerts/notify.js';
import { scheduleDeadlines } from './schedule.js';
import { config as appConfig } from '../config.js';
import { QueueName } from '../queues/names.js';
import { workerOptions } from '../queues/index.js';
import type { WorkerDeps } from '../queues/deps.js';
import type { DeadlinePayload } from '../queues/payloads.js';
import { crashPoint } from '../crash.js';
import { logger } from '../logger.js';

const log = logger.child({ module: 'deadlines' });

/** What a deadline job found: the check went down now, is not due yet, or needs nothing (gone, down, no deadline). */
export type DeadlineOutcome = 'flipped' | 'early' | 'settled';

/** Longest a job waits for others to share its batch, milliseconds. */
const BATCH_WINDOW_MS = 2;
/** Most jobs applied in one batch. */
const MAX_BATCH = 1000;

/** The last down pass of this process: passes run one after another, so batches starting together never write the same checks. */
let lastPass: Promise<unknown> = Promise.resolve();
/** Outbox entries this process is completing now (ids): another batch leaves them alone, a retry after a failure or crash does not. */
const completing = new Set<string>();
/** How many entries of each check (UUID) this process is completing now. */
const completingChecks = new Map<string, number>();

/** Whether this process is completing flips of the check now (the recovery leaves it alone: its alerts are being sent). */
export function completingHere(checkId: string): boolean {
  return completingChecks.has(checkId);
}

/** Marks (`by` 1) or unmarks (`by` -1) entries as being completed by this process. */
function markCompleting(owed: readonly { check: CheckDoc; entry: { _id: unknown } }[], by: 1 | -1): void {
  for (const { check, entry } of owed) {
    if (by === 1) completing.add(String(entry._id));
    else completing.delete(String(entry._id));
    const count = (completingChecks.get(check._id) ?? 0) + by;
    if (count > 0) completingChecks.set(check._id, count);
    else completingChecks.delete(check._id);
  }
}

/**
 * The store's computation of a deadline at `now`: down with the timeout flip owed, dated at the deadline (docs/checks.md, "Deadlines"); and the alerts the check's
 * alerting rules owe now (a late warning, a reminder), written with them.
 */
function deadlineChange(now: Date, stillUntil: (check: CheckDoc) => Date | null | undefined): Compute<DeadlineOutcome> {
  return (check) => {
    const rules = bothChanges(ruleChange(check, now), maintenanceEndChange(check, now, stillUntil(check)));
    const owe = (rules?.owe ?? []).map((alert) => owedFlip(alert, now, now));
    const unchanged = rules ? { set: rules.set, owe } : null;
    const deadline = deadlineOf(check);
    if (check.status === 'down' || !deadline) return { change: unchanged, result: 'settled' };
    if (liveStatus(check, now) !== 'down') return { change: unchanged, result: 'early' };
    const entry = owedFlip({ oldStatus: check.status, newStatus: 'down', reason: 'timeout' }, deadline, now);
    return { change: { set: { status: 'down', deadline: null, ...downRuleFields(check, now) }, owe: [entry] }, result: 'flipped' };
  };
}

/**
 * Applies the deadlines of a batch of checks and of every other check due now (up to {@link MAX_BATCH}): stores `down` where it is due, moves the job
 * of a check not due yet, and completes every flip the checks owe (a crashed earlier attempt's included).
 *
 * @param checkIds - Check UUIDs; repeats are applied once.
 * @returns What was done, per check UUID still existing.
 * @throws the MongoDB or Redis error; BullMQ retries the jobs.
 */
export async function applyDeadlines(deps: Pick<WorkerDeps, 'queues' | 'clock' | 'notify'>, checkIds: readonly string[]): Promise<Map<string, DeadlineOutcome>> {
  const pass = lastPass.then(async () => {
    const now = deps.clock();
    const [own, due] = await Promise.all([readChecks(checkIds), readDue(now, MAX_BATCH)]);
    // A job at a window's end takes the other checks that window released too (read only then: none for a check without rules).
    const released = own.some((c) => c.heldUntil && c.heldUntil <= now) ? await readHeldDue(now, MAX_BATCH) : [];
    const checks = new Map([...own, ...due, ...released].map((check) => [check._id, check]));
    // Windows are read only for checks holding an alert (none for a check without rules); a check that gained one since is left as it is.
    const holding = [...checks.values()].filter((c) => c.heldUntil);
    const windowsRead = new Set(holding.map((c) => c.projectId));
    const stillUntil = await maintenanceOf(holding, now);
    const until = (check: CheckDoc) => (windowsRead.has(check.projectId) ? stillUntil(check) : undefined);
    return { now, applied: await changeChecks([...checks.values()], deadlineChange(now, until)) };
  });
  lastPass = pass.catch(() => undefined);
  const { now, applied } = await pass;
  crashPoint('deadline-stored');
  const results = [...applied.values()];
  // The job comes back at the deadline, or at a rule's next moment when earlier (a check down for good has none).
  const early = results.flatMap(({ check, result }) => {
    const at = earliest(result === 'early' ? deadlineOf(check) : null, ruleWakeAt(check));
    return at ? [{ checkId: check._id, at }] : [];
  });
  const owed = results.flatMap(({ check }) => check.outbox.filter((e) => !completing.has(String(e._id))).map((entry) => ({ check, entry })));
  markCompleting(owed, 1);
  try {
    const notify = deps.notify ?? appConfig.notify;
    const first = { token: randomUUID(), leaseMs: leaseMsOf(notify) };
    const [claimed] = await Promise.all([fanOut({ queues: deps.queues, notify }, owed, deps.clock(), first), scheduleDeadlines(deps.queues.deadlines, early, now)]);
    // Alerts first: the pull only tidies (a crash before it leaves a repeat that inserts nothing).
    await sendFirstAttempts({ notifyQueue: deps.queues.notify, clock: deps.clock, config: notify }, claimed, first.token);
    await pullOwed(owed.map(({ check, entry }) => ({ checkId: check._id, entry })));
  } finally {
    markCompleting(owed, -1);
  }
  for (const { check, result } of results) if (result === 'flipped') log.info({ checkId: check._id }, 'check went down');
  return new Map(results.map(({ check, result }) => [check._id, result]));
}

/**
 * Reads a job's payload.
 *
 * @throws UnrecoverableError when it names no check (retrying cannot help).
 */
export function deadlinePayload(job: Pick<Job<unknown>, 'data'>): DeadlinePayload {
  const data = job.data as Partial<DeadlinePayload> | null;
  if (typeof data?.checkId === 'string' && data.checkId !== '') return { checkId: data.checkId };
  throw new UnrecoverableError('deadline job without a checkId');
}

/**
 * Starts the `deadlines` consumer, `settings.deadlineConcurrency` jobs at a time; jobs started within {@link BATCH_WINDOW_MS} of each other share one
 * {@link applyDeadlines}.
 */
export function deadlineWorker(deps: WorkerDeps): Worker<DeadlinePayload, DeadlineOutcome | undefined> {
  const batch = new DataLoader<string, DeadlineOutcome | undefined>(
    async (ids) => {
      const outcomes = await applyDeadlines(deps, ids);
      return ids.map((id) => outcomes.get(id));
    },
    { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (run) => setTimeout(run, BATCH_WINDOW_MS) },
  );
  return new Worker<DeadlinePayload, DeadlineOutcome | undefined>(QueueName.Deadlines, (job) => batch.load(deadlinePayload(job).checkId), {
    ...workerOptions(deps.connection),
    concurrency: deps.settings.deadlineConcurrency,
  });
}
