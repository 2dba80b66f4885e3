/**
 * Check management for the API: list, create (with upsert), update, pause,
 * resume and delete (behaviour.md §3.6, §3.8–§3.10, §2.5 rows 14–18).
 *
 * Writes name only the fields they change (`$set`), so a ping landing at the
 * same time never has its status, `last_ping` or `n_pings` overwritten with
 * values read before it (§3.6 Update rule 5, §6 rule 6).
 */
import { randomUUID } from 'node:crypto';
import { Check, type CheckDoc, type StoredStatus } from '../../shared/models/check.js';
import { Ping } from '../../shared/models/ping.js';
import { Notification } from '../../shared/models/notification.js';
import { Flip } from '../../shared/models/flip.js';
import type { ProjectDoc } from '../../shared/models/project.js';
import { deadlineOf } from '../../shared/domain/status.js';
import { completeOutbox, outboxEntry } from '../../shared/services/outbox.js';
import { guardOf } from '../../shared/services/signal-check.js';
import { config } from '../../shared/config.js';
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

/** How many times an API write recomputes after a concurrent write to the same check. */
const MAX_ATTEMPTS = 20;

/**
 * Writes the payload's fields and the deadline they give in ONE update,
 * guarded by everything the deadline was computed from (§3.6 Update, §2.5
 * row 18), so a deadline drain or a ping in between makes it recompute rather
 * than store fields and a deadline that disagree. Channels are resolved
 * before anything is written.
 *
 * @param check - The check as loaded for the request.
 * @throws AppError(400) for a bad `channels` parameter (the check is left unchanged);
 *   AppError(404) when the check was deleted meanwhile.
 */
export async function updateCheck(deps: CheckDeps, check: CheckDoc, write: CheckWrite): Promise<CheckDoc> {
  const { input, version } = write;
  const channels = await resolveChannels(check.projectId, input.channels);
  let current = check;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const set = fieldsOf(current, input, version);
    if (channels !== undefined) set.channels = channels;
    const deadline = deadlineOf({ ...current, ...set });
    const updated = await Check.findOneAndUpdate(guardOf(current), { $set: { ...set, deadline } }, { returnDocument: 'after' }).lean<CheckDoc>();
    if (updated) {
      if (deadline && deadline.getTime() !== current.deadline?.getTime()) await schedule(deps, updated._id, deadline);
      return updated;
    }
    const fresh = await Check.findById(check._id).lean<CheckDoc>();
    if (!fresh) throw notFound();
    current = fresh;
  }
  throw new Error(`check ${check._id} keeps changing under an update`);
}

async function schedule(deps: CheckDeps, checkId: string, deadline: Date): Promise<void> {
  await scheduleDeadline(deps.queues.deadlines, checkId, deadline, deps.clock()).catch((err: unknown) =>
    log.error({ err, checkId }, 'cannot schedule deadline; the sweep will'),
  );
}

/**
 * Writes a status change made through the API together with its flip in the
 * check's outbox, guarded on the status it was computed from, then completes
 * the flip (never an alerting one: pause and resume do not notify, §6 rule 4).
 *
 * @param change - The fields to set, given the stored status; null when nothing is to be written.
 * @returns The check before and after, or null when it was deleted (or `change` gave null).
 */
async function changeStatus(
  deps: CheckDeps,
  check: CheckDoc,
  change: (status: StoredStatus) => { set: Partial<CheckDoc>; newStatus: StoredStatus } | null,
): Promise<{ before: CheckDoc; after: CheckDoc } | null> {
  let current: CheckDoc | null = check;
  for (let attempt = 0; current && attempt < MAX_ATTEMPTS; attempt++) {
    const next = change(current.status);
    if (!next) return null;
    const now = deps.clock();
    const entry = next.newStatus === current.status ? null : outboxEntry({ oldStatus: current.status, newStatus: next.newStatus, reason: '' }, now, now);
    const update = { $set: next.set, ...(entry ? { $push: { outbox: entry } } : {}) };
    const before = await Check.findOneAndUpdate({ _id: check._id, status: current.status }, update, { returnDocument: 'before' }).lean<CheckDoc>();
    if (before) {
      const after = { ...before, ...next.set };
      if (entry) {
        await completeOutbox({ queues: deps.queues, notify: config.notify }, [{ check: after, entry }], now).catch((err: unknown) =>
          log.error({ err, checkId: check._id }, 'cannot complete the flip; the sweep will'),
        );
      }
      return { before, after };
    }
    current = await Check.findById(check._id).lean<CheckDoc>();
  }
  if (!current) return null;
  throw new Error(`check ${check._id} keeps changing under a status change`);
}

/**
 * Pauses a check (§2.5 rows 14–15): status `paused`, no run in progress, no
 * deadline; `last_ping` kept. A change into `paused` is recorded as a flip,
 * which the API never lists.
 *
 * @throws AppError(404) when the check was deleted meanwhile.
 */
export async function pauseCheck(deps: CheckDeps, check: CheckDoc): Promise<CheckDoc> {
  const set = { status: 'paused' as const, lastStart: null, deadline: null };
  const done = await changeStatus(deps, check, () => ({ set, newStatus: 'paused' }));
  if (!done) throw notFound();
  return done.after;
}

/**
 * Resumes a paused check (§2.5 rows 16–17): status `new`, and `last_ping`,
 * the run and the deadline cleared; `n_pings` kept. The change is recorded as a flip.
 *
 * @throws AppError(409, text) `check is not paused` when its stored status is not `paused`.
 */
export async function resumeCheck(deps: CheckDeps, check: CheckDoc): Promise<CheckDoc> {
  const set = { status: 'new' as const, lastPing: null, lastStart: null, deadline: null };
  const done = await changeStatus(deps, check, (status) => (status === 'paused' ? { set, newStatus: 'new' } : null));
  if (!done) throw new AppError(409, 'check is not paused', 'text');
  return done.after;
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
