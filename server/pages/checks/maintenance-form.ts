/**
 * The maintenance window form ⇄ the API's payload (docs/alerting-rules.md): checked by the API's Joi schema
 * (server/schemas/maintenance.ts) and then by its service, so the page shows the API's own message beside the field.
 */
import type { Request } from 'express';
import type { MaintenanceDoc } from '../../../shared/models/maintenance.js';
import { AppError } from '../../../shared/errors.js';
import { maintenanceSchema, type MaintenanceInput } from '../../schemas/maintenance.js';
import { parseBody, VALIDATION_PREFIX } from '../../schemas/parse.js';
import { FieldError, fieldOf } from '../kit/forms.js';

/** The form's values as the page fills them. */
export interface WindowFormValues {
  name: string;
  kind: 'once' | 'cron';
  /** ISO 8601; a time without a zone is taken as UTC. */
  start: string;
  end: string;
  schedule: string;
  tz: string;
  /** Seconds, as typed. */
  duration: string;
  covers: 'all' | 'tags' | 'checks';
  tags: string;
  checks: string[];
}

const iso = (at: Date | null): string => (at ? at.toISOString().slice(0, 16) + 'Z' : '');

/** The values of a stored window, or of a new one (one-off, every check). */
export function windowValuesOf(w: MaintenanceDoc | null): WindowFormValues {
  if (!w) return { name: '', kind: 'once', start: '', end: '', schedule: '0 2 * * 0', tz: 'UTC', duration: '3600', covers: 'all', tags: '', checks: [] };
  const covers = w.allChecks ? 'all' : w.checkIds.length ? 'checks' : 'tags';
  return {
    name: w.name, kind: w.schedule ? 'cron' : 'once', start: iso(w.start), end: iso(w.end), schedule: w.schedule || '0 2 * * 0', tz: w.tz,
    duration: w.duration ? String(w.duration) : '3600', covers, tags: w.tags.join(' '), checks: w.checkIds,
  };
}

/** The values as submitted. */
export function submittedWindow(req: Request): WindowFormValues {
  const list = (req.body as Record<string, unknown>).check;
  const covers = fieldOf(req, 'covers');
  return {
    name: fieldOf(req, 'name'), kind: fieldOf(req, 'kind') === 'cron' ? 'cron' : 'once', start: fieldOf(req, 'start'), end: fieldOf(req, 'end'),
    schedule: fieldOf(req, 'schedule'), tz: fieldOf(req, 'tz'), duration: fieldOf(req, 'duration'),
    covers: covers === 'tags' || covers === 'checks' ? covers : 'all', tags: fieldOf(req, 'tags'),
    checks: (Array.isArray(list) ? list : [list]).filter((id): id is string => typeof id === 'string'),
  };
}

/** A typed time: UTC when it has no zone (`2026-11-26T04:30` → `…Z`); empty as null (the service then says what is missing). */
function timeOf(value: string): string | null {
  const trimmed = value.trim().replace(' ', 'T');
  if (trimmed === '') return null;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(trimmed) ? `${trimmed}Z` : trimmed;
}

/** The API payload of the form, validated by the API's schema. @throws FieldError with the API's message (`end is not an ISO 8601 time`). */
export function windowInputOf(values: WindowFormValues): MaintenanceInput {
  const payload: Record<string, unknown> = { name: values.name };
  if (values.kind === 'cron') {
    const duration = values.duration.trim();
    Object.assign(payload, { schedule: values.schedule, tz: values.tz, duration: /^\d{1,12}$/.test(duration) ? Number(duration) : duration });
  } else Object.assign(payload, { start: timeOf(values.start), end: timeOf(values.end), schedule: null, duration: null });
  if (values.covers === 'all') Object.assign(payload, { checks: '*', tags: '' });
  else if (values.covers === 'tags') Object.assign(payload, { checks: [], tags: values.tags });
  else Object.assign(payload, { checks: values.checks, tags: '' });
  try {
    return parseBody(maintenanceSchema, payload);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    throw windowFieldError(err.message);
  }
}

/** An API message as a field error: its first word names the field (`end precedes start`); others (`a window needs …`) go on top. */
export function windowFieldError(message: string): FieldError {
  const problem = message.startsWith(VALIDATION_PREFIX) ? message.slice(VALIDATION_PREFIX.length) : message;
  return new FieldError(problem.split(' ', 1)[0], problem);
}
