/**
 * Check management for the API: list, create (with upsert), update, pause,
 * resume and delete (behaviour.md §3.6, §3.8–§3.10, §2.5 rows 14–18).
 *
 * Writes name only the fields they change (`$set`), so a ping landing at the
 * same time never has its status, `last_ping` or `n_pings` overwritten with
 * values read before it (§3.6 Update rule 5, §6 rule 6).
 */
import { randomUUID } from 'node:crypto';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { Ping } from '../../shared/models/ping.js';
import { Notification } from '../../shared/models/notification.js';
import { Flip } from '../../shared/models/flip.js';
import type { ProjectDoc } from '../../shared/models/project.js';
import { deadlineOf } from '../../shared/domain/status.js';
import { recordFlip } from '../../shared/services/flips.js';
import { scheduleDeadline } from '../../shared/queues/deadlines.js';
import type { Queues } from '../../shared/queues/index.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, notFound } from '../../shared/errors.js';
import { logger } from '../../shared/logger.js';
import type { CheckInput } from '../schemas/check.js';
import type { ListChecksQuery } from '../schemas/query.js';
import type { ApiVersion } from '../middleware/version.js';
import { fieldsOf, resolveChannels, upsertFilter } from './check-fields.js';

const log = logger.child({ module: 'checks' });

/** What the check services need from the app. */
export interface CheckDeps {
  clock: Clock;
  queues: Queues;
}

/** A validated create or update payload and the API version it came through (v1 and v2 derive `slug`, §7 item 5). */
export interface CheckWrite {
  input: CheckInput;
  version: ApiVersion;
}

/** Keywords of a new check, before the payload applies (§1.8). */
const NEW_KEYWORDS = { successKw: '', failureKw: '' };

/**
 * The project's checks in creation order, filtered by exact slug and by tags:
 * a check must carry every given tag as a whitespace-separated token (§3.6 List checks).
 */
export async function listChecks(project: ProjectDoc, query: ListChecksQuery): Promise<CheckDoc[]> {
  const filter = query.slug === undefined ? { projectId: project._id } : { projectId: project._id, slug: query.slug };
  const checks = await Check.find(filter).sort({ created: 1 }).lean<CheckDoc[]>();
  return checks.filter((check) => {
    const tags = check.tags.split(/\s+/);
    return query.tag.every((tag) => tag !== '' && tags.includes(tag));
  });
}

/**
 * Creates a check, or updates the upsert match (§3.6 Create, §3.9).
 *
 * @returns The check, and whether it was created (201) rather than matched (200).
 * @throws AppError(403, empty) when the project is at its check limit (§3.8);
 *   AppError(400) for a bad `channels` parameter, in which case nothing is created.
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
 * Writes the payload's fields and recomputes the deadline (§3.6 Update, §2.5 row 18).
 * Channels are resolved before anything is written.
 *
 * @param check - The check as loaded for the request.
 * @throws AppError(400) for a bad `channels` parameter (the check is left unchanged);
 *   AppError(404) when the check was deleted meanwhile.
 */
export async function updateCheck(deps: CheckDeps, check: CheckDoc, write: CheckWrite): Promise<CheckDoc> {
  const { input, version } = write;
  const channels = await resolveChannels(check.projectId, input.channels);
  const set = fieldsOf(check, input, version);
  if (channels !== undefined) set.channels = channels;
  const updated = await Check.findOneAndUpdate({ _id: check._id }, { $set: set }, { returnDocument: 'after' }).lean<CheckDoc>();
  if (!updated) throw notFound();
  return refreshDeadline(deps, updated);
}

/**
 * Stores the deadline the check's fields now give and schedules its job.
 * The write is conditional on `n_pings`: a ping recorded meanwhile has stored
 * its own deadline, computed from fresher state.
 */
async function refreshDeadline(deps: CheckDeps, check: CheckDoc): Promise<CheckDoc> {
  const deadline = deadlineOf(check);
  if (deadline?.getTime() === check.deadline?.getTime()) return check;
  await Check.updateOne({ _id: check._id, nPings: check.nPings }, { $set: { deadline } });
  if (deadline) {
    await scheduleDeadline(deps.queues.deadlines, check._id, deadline, deps.clock()).catch((err: unknown) =>
      log.error({ err, checkId: check._id }, 'cannot schedule deadline; the sweep will'),
    );
  }
  return { ...check, deadline };
}

/**
 * Pauses a check (§2.5 rows 14–15): status `paused`, no run in progress, no
 * deadline; `last_ping` kept. A change into `paused` is recorded as an
 * already-processed flip, which the API never lists.
 *
 * @throws AppError(404) when the check was deleted meanwhile.
 */
export async function pauseCheck(deps: CheckDeps, check: CheckDoc): Promise<CheckDoc> {
  const set = { status: 'paused' as const, lastStart: null, deadline: null };
  const before = await Check.findOneAndUpdate({ _id: check._id }, { $set: set }, { returnDocument: 'before' }).lean<CheckDoc>();
  if (!before) throw notFound();
  if (before.status !== 'paused') {
    const now = deps.clock();
    await recordFlip(deps.queues, check, { oldStatus: before.status, newStatus: 'paused', reason: '' }, now, now);
  }
  return { ...before, ...set };
}

/**
 * Resumes a paused check (§2.5 rows 16–17): status `new`, and `last_ping`,
 * the run and the deadline cleared; `n_pings` kept. The change is recorded as
 * an already-processed flip.
 *
 * @throws AppError(409, text) `check is not paused` when its stored status is not `paused`.
 */
export async function resumeCheck(deps: CheckDeps, check: CheckDoc): Promise<CheckDoc> {
  const set = { status: 'new' as const, lastPing: null, lastStart: null, deadline: null };
  const after = await Check.findOneAndUpdate({ _id: check._id, status: 'paused' }, { $set: set }, { returnDocument: 'after' }).lean<CheckDoc>();
  if (!after) throw new AppError(409, 'check is not paused', 'text');
  const now = deps.clock();
  await recordFlip(deps.queues, check, { oldStatus: 'paused', newStatus: 'new', reason: '' }, now, now);
  return after;
}

/**
 * Deletes a check with its pings, flips and notifications (§3.6 Delete).
 *
 * @returns The check as it was just before deletion.
 * @throws AppError(404) when it was deleted meanwhile.
 */
export async function deleteCheck(check: CheckDoc): Promise<CheckDoc> {
  const deleted = await Check.findOneAndDelete({ _id: check._id }).lean<CheckDoc>();
  if (!deleted) throw notFound();
  const byCheck = { checkId: check._id };
  await Promise.all([Ping.deleteMany(byCheck), Flip.deleteMany(byCheck), Notification.deleteMany(byCheck)]);
  return deleted;
}
