/**
 * Maintenance windows for the API (docs/alerting-rules.md): list, create, read, update, delete, within the key's project. A change or deletion of
 * a window makes the checks holding an alert for a window of the project look again at once (their deadline jobs), so a shortened or deleted
 * window releases them then.
 */
import { randomUUID } from 'node:crypto';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { Maintenance, type MaintenanceDoc } from '../../shared/models/maintenance.js';
import { scheduleDeadlines } from '../../shared/deadlines/schedule.js';
import { AppError, notFound } from '../../shared/errors.js';
import { logger } from '../../shared/logger.js';
import type { MaintenanceInput } from '../schemas/maintenance.js';
import { VALIDATION_PREFIX } from '../schemas/parse.js';
import type { CheckDeps } from './checks.js';

const log = logger.child({ module: 'maintenance' });
const invalid = (problem: string) => new AppError(400, VALIDATION_PREFIX + problem);

/**
 * The window fields a payload sets, merged over `current` (a window of the other kind drops the fields of the first).
 * @throws AppError(400) when the payload gives both kinds.
 */
function fieldsOf(current: Partial<MaintenanceDoc>, input: MaintenanceInput): Partial<MaintenanceDoc> {
  if (input.schedule && (input.start || input.end)) throw invalid('a window needs start and end, or schedule and duration');
  const next: Partial<MaintenanceDoc> = { ...current };
  if (input.name !== undefined) next.name = input.name;
  if (input.schedule) Object.assign(next, { schedule: input.schedule, start: null, end: null });
  if (input.start !== undefined || input.end !== undefined) next.schedule = '';
  if (input.start !== undefined) next.start = input.start;
  if (input.end !== undefined) next.end = input.end;
  if (input.tz !== undefined) next.tz = input.tz;
  if (input.duration !== undefined) next.duration = input.duration ?? 0;
  if (input.checks !== undefined) Object.assign(next, input.checks === '*' ? { allChecks: true, checkIds: [] } : { allChecks: false, checkIds: [...new Set(input.checks)] });
  if (input.tags !== undefined) next.tags = input.tags.split(/\s+/).filter(Boolean);
  return next;
}

/**
 * Checks a whole window: one kind, `end` after `start`, a `duration` for a schedule, something covered, every listed check in the project.
 * @throws AppError(400) `json validation error: …`.
 */
async function validate(window: Partial<MaintenanceDoc>, projectId: string): Promise<void> {
  const oneOff = Boolean(window.start || window.end);
  if (oneOff === Boolean(window.schedule)) throw invalid('a window needs start and end, or schedule and duration');
  if (oneOff && (!window.start || !window.end)) throw invalid(window.start ? 'end is missing' : 'start is missing');
  if (oneOff && window.end! <= window.start!) throw invalid('end precedes start');
  if (!oneOff && !window.duration) throw invalid('duration is missing');
  if (!window.allChecks && !window.checkIds?.length && !window.tags?.length) throw invalid('checks or tags is missing');
  const ids = window.checkIds ?? [];
  if (ids.length === 0) return;
  const known = new Set((await Check.find({ _id: { $in: ids }, projectId }, { _id: 1 }).lean<Pick<CheckDoc, '_id'>[]>()).map((c) => c._id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown) throw invalid(`checks names an unknown check: ${unknown}`);
}

/** The project's windows, oldest first. */
export function listWindows(projectId: string): Promise<MaintenanceDoc[]> {
  return Maintenance.find({ projectId }).sort({ created: 1 }).lean<MaintenanceDoc[]>().exec();
}

/** @throws AppError(404) when the project has no window `uuid`. */
export async function getWindow(projectId: string, uuid: string): Promise<MaintenanceDoc> {
  const window = await Maintenance.findOne({ _id: uuid, projectId }).lean<MaintenanceDoc>();
  if (!window) throw notFound();
  return window;
}

/** Creates a window. @throws AppError(400) as {@link validate}. */
export async function createWindow(deps: CheckDeps, projectId: string, input: MaintenanceInput): Promise<MaintenanceDoc> {
  const fields = fieldsOf({ name: '', tz: 'UTC', duration: 0, schedule: '', start: null, end: null, allChecks: false, checkIds: [], tags: [] }, input);
  await validate(fields, projectId);
  const created = await Maintenance.create({ ...fields, _id: randomUUID(), projectId, created: deps.clock() });
  return created.toObject();
}

/** Updates the given fields of a window. @throws AppError(404) when gone; AppError(400) as {@link validate}, nothing changed. */
export async function updateWindow(deps: CheckDeps, window: MaintenanceDoc, input: MaintenanceInput): Promise<MaintenanceDoc> {
  const fields = fieldsOf(window, input);
  await validate(fields, window.projectId);
  const { _id, projectId, created, ...set } = fields as MaintenanceDoc;
  const updated = await Maintenance.findOneAndUpdate({ _id: window._id }, { $set: set }, { returnDocument: 'after' }).lean<MaintenanceDoc>();
  if (!updated) throw notFound();
  await recheckHeld(deps, window.projectId);
  return updated;
}

/** Deletes a window; returns it as it was. @throws AppError(404) when gone. */
export async function deleteWindow(deps: CheckDeps, window: MaintenanceDoc): Promise<MaintenanceDoc> {
  const deleted = await Maintenance.findOneAndDelete({ _id: window._id }).lean<MaintenanceDoc>();
  if (!deleted) throw notFound();
  await recheckHeld(deps, window.projectId);
  return deleted;
}

/** Moves the deadline jobs of the project's checks holding an alert to now; a Redis error is logged (the job at the old end still comes). */
async function recheckHeld(deps: CheckDeps, projectId: string): Promise<void> {
  const held = await Check.find({ projectId, heldUntil: { $ne: null } }, { _id: 1 }).lean<Pick<CheckDoc, '_id'>[]>();
  const now = deps.clock();
  await scheduleDeadlines(deps.queues.deadlines, held.map((c) => ({ checkId: c._id, at: now })), now).catch((err: unknown) =>
    log.error({ err, projectId }, 'cannot move the jobs of held checks; they come at the old end'),
  );
}
