/**
 * The check editor's form ⇄ the API's payload: the form is turned into the JSON the Management API takes and checked
 * with the same Joi schema (server/schemas/check.ts), so the page shows the API's own message under the field.
 */
import type { Request } from 'express';
import type { CheckDoc } from '../../../shared/models/check.js';
import type { ScheduleKind } from '../../../shared/domain/schedule.js';
import { AppError } from '../../../shared/errors.js';
import { checkSchema, type CheckInput } from '../../schemas/check.js';
import { parseBody, VALIDATION_PREFIX } from '../../schemas/parse.js';
import { FieldError, fieldOf, ticked } from '../kit/forms.js';
import { ruleValuesOf, rulePayloadOf, submittedRules, type RuleFormValues } from './rule-form.js';

/** Units offered for timeout and grace, in seconds. */
export const UNITS: ReadonlyArray<[string, number]> = [
  ['days', 86400],
  ['hours', 3600],
  ['minutes', 60],
  ['seconds', 1],
];

/** The form's values, as the page fills its fields. */
export interface CheckFormValues {
  name: string;
  slug: string;
  tags: string;
  desc: string;
  kind: ScheduleKind;
  timeoutValue: string;
  timeoutUnit: number;
  graceValue: string;
  graceUnit: number;
  /** The cron field's expression. */
  schedule: string;
  /** The OnCalendar field's expressions, one per line (docs/api.md, "OnCalendar schedules"). */
  calendar: string;
  tz: string;
  postOnly: boolean;
  manualResume: boolean;
  filterSubject: boolean;
  filterBody: boolean;
  filterHttpBody: boolean;
  filterDefaultFail: boolean;
  startKw: string;
  successKw: string;
  failureKw: string;
  channels: string[];
  /** The alerting rules (server/pages/checks/rule-form.ts). */
  rules: RuleFormValues;
}

/** A number of seconds as the largest unit dividing it evenly. */
function inUnits(seconds: number): [string, number] {
  const [, unit] = UNITS.find(([, size]) => seconds % size === 0) ?? ['seconds', 1];
  return [String(seconds / unit), unit];
}

/** What the schedule fields hold when the check is of another kind. */
const DEFAULT_CRON = '* * * * *';
const DEFAULT_CALENDAR = 'daily';

/** The kind the editor's radio names; anything else is simple. */
function kindOf(value: string): ScheduleKind {
  return value === 'cron' || value === 'oncalendar' ? value : 'simple';
}

/**
 * The values of a stored check, or of a new one (simple, 1 day, grace 1 hour, UTC).
 * @param channelIds - A new check's integrations, ticked (the web app offers all of the project's); a stored check keeps its own.
 */
export function valuesOf(check: CheckDoc | null, channelIds: readonly string[] = []): CheckFormValues {
  const c = check ?? { name: '', slug: '', tags: '', desc: '', kind: 'simple', timeout: 86400, grace: 3600, schedule: DEFAULT_CRON, tz: 'UTC' };
  const calendar = c.kind === 'oncalendar';
  const [timeoutValue, timeoutUnit] = inUnits(c.timeout);
  const [graceValue, graceUnit] = inUnits(c.grace);
  return {
    name: c.name, slug: c.slug, tags: c.tags, desc: c.desc, kind: c.kind,
    timeoutValue, timeoutUnit, graceValue, graceUnit, tz: c.tz,
    schedule: calendar ? DEFAULT_CRON : c.schedule, calendar: calendar ? c.schedule : DEFAULT_CALENDAR,
    postOnly: check?.methods === 'POST', manualResume: check?.manualResume ?? false,
    filterSubject: check?.filterSubject ?? false, filterBody: check?.filterBody ?? false,
    filterHttpBody: check?.filterHttpBody ?? false, filterDefaultFail: check?.filterDefaultFail ?? false,
    startKw: check?.startKw ?? '', successKw: check?.successKw ?? '', failureKw: check?.failureKw ?? '',
    channels: check?.channels ?? [...channelIds], rules: ruleValuesOf(check),
  };
}

/** A textarea's text with `\n` line ends: browsers post CR LF, and the schedule is stored as an API client sends it. */
function unixLineEnds(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** The values as submitted, so a refused form comes back as typed. */
export function submittedValues(req: Request): CheckFormValues {
  const list = (req.body as Record<string, unknown>).channel;
  const channels = (Array.isArray(list) ? list : [list]).filter((id): id is string => typeof id === 'string');
  return {
    name: fieldOf(req, 'name'), slug: fieldOf(req, 'slug'), tags: fieldOf(req, 'tags'), desc: fieldOf(req, 'desc'),
    kind: kindOf(fieldOf(req, 'kind')),
    timeoutValue: fieldOf(req, 'timeout'), timeoutUnit: Number(fieldOf(req, 'timeout_unit')) || 1,
    graceValue: fieldOf(req, 'grace'), graceUnit: Number(fieldOf(req, 'grace_unit')) || 1,
    schedule: fieldOf(req, 'schedule'), calendar: unixLineEnds(fieldOf(req, 'oncalendar')), tz: fieldOf(req, 'tz'),
    postOnly: ticked(req, 'post_only'), manualResume: ticked(req, 'manual_resume'),
    filterSubject: ticked(req, 'filter_subject'), filterBody: ticked(req, 'filter_body'),
    filterHttpBody: ticked(req, 'filter_http_body'), filterDefaultFail: ticked(req, 'filter_default_fail'),
    startKw: fieldOf(req, 'start_kw'), successKw: fieldOf(req, 'success_kw'), failureKw: fieldOf(req, 'failure_kw'),
    channels, rules: submittedRules(req),
  };
}

/** Seconds from a whole number and a unit; the text itself when not a whole number (the schema then says so). */
function seconds(value: string, unit: number): number | string {
  return /^\d{1,12}$/.test(value.trim()) ? Number(value.trim()) * unit : value;
}

/** The expression of the chosen kind's field (the API then takes a single line of 5 fields as cron, docs/api-reference.md, "Validation"). */
export function scheduleOf(values: CheckFormValues): string {
  return values.kind === 'oncalendar' ? values.calendar : values.schedule;
}

/**
 * The API payload of the form, validated by the API's schema; rule keys only where they differ from `check` (the stored one, null when new).
 * @throws FieldError naming the first invalid field with the API's message (`timeout is too small`).
 */
export function inputOf(values: CheckFormValues, check: CheckDoc | null = null): CheckInput {
  const payload: Record<string, unknown> = {
    name: values.name, slug: values.slug, tags: values.tags, desc: values.desc,
    grace: seconds(values.graceValue, values.graceUnit),
    methods: values.postOnly ? 'POST' : '', manual_resume: values.manualResume,
    filter_subject: values.filterSubject, filter_body: values.filterBody, filter_http_body: values.filterHttpBody,
    filter_default_fail: values.filterDefaultFail,
    start_kw: values.startKw, success_kw: values.successKw, failure_kw: values.failureKw,
    channels: values.channels.join(','),
  };
  if (values.kind !== 'simple') Object.assign(payload, { schedule: scheduleOf(values), tz: values.tz });
  else payload.timeout = seconds(values.timeoutValue, values.timeoutUnit);
  Object.assign(payload, rulePayloadOf(values.rules, check));
  try {
    return parseBody(checkSchema, payload);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const message = err.message.slice(VALIDATION_PREFIX.length);
    throw new FieldError(message.split(' ', 1)[0], message);
  }
}

/** A service's 400 as a field error: `json validation error: depends_on …` is about `depends_on`; any other (channels) about `channels`. */
export function serviceFieldError(message: string): FieldError {
  if (!message.startsWith(VALIDATION_PREFIX)) return new FieldError('channels', message);
  const problem = message.slice(VALIDATION_PREFIX.length);
  return new FieldError(problem.split(' ', 1)[0], problem);
}
