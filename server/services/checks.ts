/**
 * Check management for the API (docs/api-reference.md, "Endpoints", "Check limit", "Assigning integrations"; docs/checks.md, "What changes a check"). Writes `$set` only what they
 * change, so a concurrent ping's status, `last_ping` or `n_pings` is never overwritten (docs/api-reference.md, "Endpoints").
 */
import { randomUUID } from 'node:crypto';
import { Check, type CheckDoc, type StoredStatus } from '../../shared/models/check.js';
import { Ping } from '../../shared/models/ping.js';
import { Notification } from '../../shared/models/notification.js';
import { Flip } from '../../shared/models/flip.js';
import type { ProjectDoc } from '../../shared/models/project.js';
import { deadlineOf } from '../../shared/domain/status.js';
import { downRuleFields, wakeAt } from '../../shared/domain/timer-rules.js';
import { changeCheck, changeChecks, owedFlip } from '../../shared/checks/store.js';
import { completeOwed } from '../../shared/alerts/outbox.js';
import { announceChanges } from '../../shared/status-pages/changes.js';
import { config } from '../../shared/config.js';
import { scheduleDeadlines } from '../../shared/deadlines/schedule.js';
import type { Queues } from '../../shared/queues/index.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, notFound } from '../../shared/errors.js';
import { logger } from '../../shared/logger.js';
import type { CheckInput } from '../schemas/check.js';
import type { ListChecksQuery } from '../schemas/query.js';
import type { ApiVersion } from '../middleware/version.js';
import { fieldsOf, resolveChannels, upsertFilter } from './check-fields.js';
import { checkDependsOn } from './check-rules.js';
import { heldDependantsOf, releaseHeld } from '../../shared/alerts/dependencies.js';

const log = logger.child({ module: 'checks' });

/** What the check services need from the app. */
export interface CheckDeps {
  clock: Clock;
  queues: Queues;
}

/** A validated create or update payload and the API version it came through (v1 and v2 derive `slug`, docs/api-reference.md, "Paths and versions"). */
export interface CheckWrite {
  input: CheckInput;
  version: ApiVersion;
}

/** Keywords of a new check, before the payload applies (docs/checks.md, "A new check"). */
const NEW_KEYWORDS = { successKw: '', failureKw: '' };

/** The project's checks in creation order, by exact slug and carrying every tag as a token (docs/api-reference.md, "Endpoints"). */
export async function listChecks(project: ProjectDoc, query: ListChecksQuery): Promise<CheckDoc[]> {
  const filter = query.slug === undefined ? { projectId: project._id } : { projectId: project._id, slug: query.slug };
  const checks = await Check.find(filter).sort({ created: 1 }).lean<CheckDoc[]>();
  return checks.filter((check) => {
    const tags = check.tags.split(/\s+/);
    return query.tag.every((tag) => tag !== '' && tags.includes(tag));
  });
}

/**
 * Creates a check, or updates the upsert match (docs/api-reference.md, "Endpoints", "Upsert"); `created` tells 201 from 200.
 * @throws AppError(403, empty) at the project's check limit (docs/api-reference.md, "Check limit"); AppError(400) for a bad `channels`.
 */
export async function createCheck(
  deps: CheckDeps,
  project: ProjectDoc,
  write: CheckWrite,
): Promise<{ check: CheckDoc; created: boolean }> {
  const { input, version } = write;
  const filter = upsertFilter(project._id, input);
  const match = filter && (await Check.findOne(filter).sort({ created: 1 }).lean<CheckDoc>());
  if (match) return { check: await updateCheck(deps, match, write), created: false };
  if ((await Check.countDocuments({ projectId: project._id })) >= project.checkLimit) {
    throw new AppError(403, 'check limit reached', 'empty');
  }
  const channels = await resolveChannels(project._id, input.channels);
  await checkDependsOn(project._id, null, input.depends_on);
  const check = await Check.create({
    _id: randomUUID(),
    projectId: project._id,
    badgeKey: randomUUID(),
    created: deps.clock(),
    ...fieldsOf(NEW_KEYWORDS, input, version),
    channels: channels ?? [],
  });
  return { check: check.toObject(), created: true };
}

/**
 * Writes the payload's fields and their deadline through the check store (docs/api-reference.md, "Endpoints"; docs/checks.md, "What changes a check"), so a concurrent
 * deadline or ping makes it recompute; channels are resolved before anything is written.
 * @throws AppError(400) for a bad `channels` (check unchanged); AppError(404) when the check was deleted meanwhile.
 */
export async function updateCheck(deps: CheckDeps, check: CheckDoc, write: CheckWrite): Promise<CheckDoc> {
  const { input, version } = write;
  const channels = await resolveChannels(check.projectId, input.channels);
  await checkDependsOn(check.projectId, check._id, input.depends_on);
  const now = deps.clock();
  const done = await changeCheck(check, (current) => {
    const set = fieldsOf(current, input, version);
    if (channels !== undefined) set.channels = channels;
    // `repeat_every` set on a check already down starts its reminders now.
    if (set.repeatEvery && current.status === 'down' && !(current.repeatEvery && current.remindAt)) Object.assign(set, downRuleFields(set, now));
    const deadline = deadlineOf({ ...current, ...set });
    return { change: { set: { ...set, deadline } }, result: wakeAt(current) };
  });
  if (!done) throw notFound();
  const wake = wakeAt(done.check);
  if (wake && wake.getTime() !== done.result?.getTime()) {
    await scheduleDeadlines(deps.queues.deadlines, [{ checkId: check._id, at: wake }], deps.clock()).catch((err: unknown) =>
      log.error({ err, checkId: check._id }, 'cannot schedule deadline; the sweep will'),
    );
  }
  return { ...done.check, desc: done.check.desc ?? check.desc };
}

/**
 * Writes an API status change through the check store with its flip owed, then completes the flip (never alerting:
 * pause and resume do not notify, docs/alerts.md, "Who gets alerted"). Null when the check was deleted or `change` gave null.
 */
async function changeStatus(
  deps: CheckDeps,
  check: CheckDoc,
  change: (status: StoredStatus) => { set: Partial<CheckDoc>; newStatus: StoredStatus } | null,
): Promise<CheckDoc | null> {
  const now = deps.clock();
  const done = await changeCheck(check, (current) => {
    const next = change(current.status);
    if (!next) return { change: null, result: false };
    const owe = next.newStatus === current.status ? [] : [owedFlip({ oldStatus: current.status, newStatus: next.newStatus, reason: '' }, now, now)];
    return { change: { set: next.set, owe }, result: true };
  });
  if (!done?.result) return null;
  const owed = done.check.outbox.map((entry) => ({ check: done.check, entry }));
  await completeOwed({ queues: deps.queues, notify: config.notify }, owed, now).catch((err: unknown) =>
    log.error({ err, checkId: check._id }, 'cannot complete the flip; the sweep will'),
  );
  return { ...done.check, desc: done.check.desc ?? check.desc };
}

/**
 * Pauses a check (docs/checks.md, "What changes a check"): `paused`, no run, no deadline, `last_ping` kept; a flip the API never lists.
 * @throws AppError(404) when the check was deleted meanwhile.
 */
export async function pauseCheck(deps: CheckDeps, check: CheckDoc): Promise<CheckDoc> {
  const set = { status: 'paused' as const, lastStart: null, deadline: null };
  const done = await changeStatus(deps, check, () => ({ set, newStatus: 'paused' }));
  if (!done) throw notFound();
  return done;
}

/**
 * Resumes a paused check (docs/checks.md, "What changes a check"): `new`, with `last_ping`, run and deadline cleared, `n_pings` kept; a flip.
 * @throws AppError(409, text) `check is not paused` when its stored status is not `paused`.
 */
export async function resumeCheck(deps: CheckDeps, check: CheckDoc): Promise<CheckDoc> {
  const set = { status: 'new' as const, lastPing: null, lastStart: null, deadline: null };
  const done = await changeStatus(deps, check, (status) => (status === 'paused' ? { set, newStatus: 'new' } : null));
  if (!done) throw new AppError(409, 'check is not paused', 'text');
  return done;
}

/** Tells the status pages (shared/status-pages/changes.ts) that a check left its project; a lost word only delays it. */
async function announceGone(deps: CheckDeps, checkId: string): Promise<void> {
  await announceChanges(deps.queues.redis, [{ kind: 'check', id: checkId }]).catch((err: unknown) => log.warn({ err, checkId }, 'cannot tell status pages'));
}

/**
 * Deletes a check with its pings, flips and notifications (docs/api-reference.md, "Endpoints"); returns it as it was. Checks holding an alert because it was down are
 * released (docs/alerting-rules.md, `depends_on`): a deleted parent is not down.
 * @throws AppError(404) when it was deleted meanwhile.
 */
export async function deleteCheck(deps: CheckDeps, check: CheckDoc): Promise<CheckDoc> {
  const deleted = await Check.findOneAndDelete({ _id: check._id }).lean<CheckDoc>();
  if (!deleted) throw notFound();
  const byCheck = { checkId: check._id };
  await Promise.all([Ping.deleteMany(byCheck), Flip.deleteMany(byCheck), Notification.deleteMany(byCheck)]);
  await announceGone(deps, check._id);
  const now = deps.clock();
  const held = await heldDependantsOf([check._id]);
  const released = await releaseHeld([], held.map((c) => c._id), now);
  await completeOwed({ queues: deps.queues, notify: config.notify }, released, now).catch((err: unknown) =>
    log.error({ err, checkId: check._id }, 'cannot complete released alerts; the sweep will'),
  );
  return deleted;
}

/**
 * Moves a check to another project (the reference's "Transfer"): its pings, flips and notifications go with it; its channels (the old project's)
 * and its `depends_on` (checks of the old project) are dropped. One guarded write through the check store, so a concurrent ping keeps its count.
 * The old project's checks that depended on it no longer do (guarded writes too), and those holding an alert for it are released, as when a
 * parent is deleted (README "Alerting rules", `depends_on`).
 * @throws AppError(403) `check limit reached` when `target` is at its check limit; AppError(404) when the check was deleted meanwhile.
 */
export async function transferCheck(deps: CheckDeps, check: CheckDoc, target: ProjectDoc): Promise<CheckDoc> {
  if ((await Check.countDocuments({ projectId: target._id })) >= target.checkLimit) {
    throw new AppError(403, `the project “${target.name}” has reached its check limit (${target.checkLimit})`);
  }
  const done = await changeCheck(check, () => ({ change: { set: { projectId: target._id, channels: [], dependsOn: null } }, result: null }));
  if (!done) throw notFound();
  await announceGone(deps, check._id);
  const dependants = await Check.find({ projectId: check.projectId, dependsOn: check._id }, { desc: 0 }).lean<CheckDoc[]>();
  await changeChecks(dependants, (current) => {
    const rest = (current.dependsOn ?? []).filter((id) => id !== check._id);
    return { change: { set: { dependsOn: rest.length ? rest : null } }, result: null };
  });
  const now = deps.clock();
  const released = await releaseHeld([], dependants.filter((c) => c.held).map((c) => c._id), now);
  await completeOwed({ queues: deps.queues, notify: config.notify }, released, now).catch((err: unknown) =>
    log.error({ err, checkId: check._id }, 'cannot complete released alerts; the sweep will'),
  );
  return { ...done.check, desc: done.check.desc ?? check.desc };
}

/**
 * Deletes a check's stored pings, flips and notifications (the reference's "Clear events"); the check, its status, `n_pings` and `last_ping` stay,
 * so the next ping's `n` goes on from `n_pings`.
 */
export async function clearCheckEvents(check: CheckDoc): Promise<void> {
  const byCheck = { checkId: check._id };
  await Promise.all([Ping.deleteMany(byCheck), Flip.deleteMany(byCheck), Notification.deleteMany(byCheck)]);
}
