/**
 * The maintenance window payload (docs/alerting-rules.md): `name`; either `start` and `end` (ISO 8601) or a cron or OnCalendar `schedule` (≤ 100 characters) with `tz` and
 * `duration` (seconds); the checks covered by `checks` (`"*"` or a list of check UUIDs) and/or `tags` (space-separated). The shape is checked
 * here; the combination, the order of `start` and `end` and the check UUIDs by the service (server/services/maintenance.ts).
 */
import Joi from 'joi';
import { canonicalTz, isValidSchedule } from '../../shared/domain/schedule.js';
import { UUID_RE } from '../../shared/domain/ids.js';
import { wholeSeconds } from './timer-rules.js';

/** A validated window payload, in the API's names; absent means "leave unchanged" on update. */
export interface MaintenanceInput {
  name?: string;
  start?: Date | null;
  end?: Date | null;
  schedule?: string | null;
  tz?: string;
  /** Seconds. */
  duration?: number | null;
  checks?: '*' | string[];
  tags?: string;
}

/** An ISO 8601 time with a zone (`Z` or an offset), as a Date. */
const isoTime = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/)
  .custom((value: string, helpers) => {
    const at = new Date(value);
    return Number.isNaN(at.getTime()) ? helpers.error('string.pattern.base') : at;
  })
  .messages({ 'string.pattern.base': '{{#label}} is not an ISO 8601 time' });

/** Payload of `POST maintenance/` and `POST maintenance/<uuid>`. */
export const maintenanceSchema: Joi.ObjectSchema<MaintenanceInput> = Joi.object<MaintenanceInput>({
  name: Joi.string().allow('').max(100),
  start: isoTime.allow(null),
  end: isoTime.allow(null),
  schedule: Joi.string()
    .max(100)
    .custom((value: string, helpers) => (isValidSchedule(value) ? value : helpers.error('schedule.invalid')))
    .allow(null),
  tz: Joi.string().custom((value: string, helpers) => canonicalTz(value) ?? helpers.error('tz.invalid')).messages({ 'string.empty': '{{#label}} is not a valid timezone' }),
  duration: wholeSeconds(1).allow(null),
  checks: Joi.alternatives()
    .try(Joi.string().valid('*'), Joi.array().items(Joi.string().pattern(UUID_RE).messages({ 'string.pattern.base': 'checks has an invalid check UUID' })))
    .messages({ 'alternatives.match': '{{#label}} is not "*" or a list of check UUIDs', 'alternatives.types': '{{#label}} is not "*" or a list of check UUIDs' }),
  tags: Joi.string().allow(''),
});
