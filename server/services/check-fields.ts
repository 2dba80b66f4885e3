/**
 * From a validated payload to stored check fields (docs/api-reference.md, "Endpoints"): the deprecated
 * `subject`/`subject_fail` (docs/api-reference.md, "Deprecated subject fields"), the `channels` parameter (docs/api-reference.md, "Assigning integrations"), the upsert lookup (docs/api-reference.md, "Upsert").
 */
import type { QueryFilter } from 'mongoose';
import type { CheckDoc } from '../../shared/models/check.js';
import { Channel, type ChannelDoc } from '../../shared/models/channel.js';
import { AppError } from '../../shared/errors.js';
import { slugify } from '../../shared/domain/slug.js';
import { scheduleKind } from '../../shared/domain/schedule.js';
import type { CheckInput, UniqueField } from '../schemas/check.js';
import type { ApiVersion } from '../middleware/version.js';
import { ruleFieldsOf } from './check-rules.js';
import { timerRuleFieldsOf } from './timer-rule-fields.js';

/** Check fields that a payload field maps to one-to-one. */
const DIRECT: Array<[keyof CheckInput, keyof CheckDoc]> = [
  ['name', 'name'],
  ['slug', 'slug'],
  ['tags', 'tags'],
  ['desc', 'desc'],
  ['manual_resume', 'manualResume'],
  ['methods', 'methods'],
  ['grace', 'grace'],
  ['tz', 'tz'],
];

/** Newer email-filter fields, applied after the deprecated ones so they win (docs/api-reference.md, "Deprecated subject fields"). */
const FILTERS: Array<[keyof CheckInput, keyof CheckDoc]> = [
  ['filter_subject', 'filterSubject'],
  ['filter_body', 'filterBody'],
  ['filter_http_body', 'filterHttpBody'],
  ['filter_default_fail', 'filterDefaultFail'],
  ['start_kw', 'startKw'],
  ['success_kw', 'successKw'],
  ['failure_kw', 'failureKw'],
];

/** Fields whose presence means the email filter was configured through the newer fields. */
const NEWER_FILTER_FIELDS: Array<keyof CheckInput> = ['filter_subject', 'success_kw', 'failure_kw'];

/** Stored field of each `unique` entry (docs/api-reference.md, "Upsert"). */
const UNIQUE_TO_FIELD: Record<UniqueField, keyof CheckDoc> = {
  name: 'name',
  slug: 'slug',
  tags: 'tags',
  timeout: 'timeout',
  grace: 'grace',
};

/**
 * The check fields a payload writes (absent ones left out); `current` holds the stored keywords (defaults on create).
 * - v1/v2: `name` also sets `slug` to its slugified form unless `slug` is given (docs/api-reference.md, "Paths and versions"; v3 never).
 * - `schedule` makes a cron or OnCalendar check by its shape (docs/api.md, "OnCalendar schedules"; a `timeout` is then not saved), else `timeout`
 *   a simple one (Create 6, Update 3).
 * - `subject`/`subject_fail` set `success_kw`/`failure_kw`, and `filter_subject` = either is non-empty (docs/api-reference.md, "Deprecated subject fields").
 * - `legacySubject`: true when `subject` or `subject_fail` comes without `filter_subject`, `success_kw` and
 *   `failure_kw`; false when any of those three does (docs/api-reference.md, "Deprecated subject fields"); else unchanged.
 */
export function fieldsOf(
  current: Pick<CheckDoc, 'successKw' | 'failureKw'>,
  input: CheckInput,
  version: ApiVersion,
): Partial<CheckDoc> {
  const set: Record<string, unknown> = {};
  if (version < 3 && input.name !== undefined) set.slug = slugify(input.name);
  for (const [from, to] of DIRECT) if (input[from] !== undefined) set[to] = input[from];
  if (input.schedule !== undefined) {
    set.kind = scheduleKind(input.schedule);
    set.schedule = input.schedule;
  } else if (input.timeout !== undefined) {
    set.kind = 'simple';
    set.timeout = input.timeout;
  }
  const legacy = input.subject !== undefined || input.subject_fail !== undefined;
  if (legacy) {
    const successKw = input.subject ?? current.successKw;
    const failureKw = input.subject_fail ?? current.failureKw;
    Object.assign(set, { successKw, failureKw, filterSubject: successKw !== '' || failureKw !== '' });
  }
  for (const [from, to] of FILTERS) if (input[from] !== undefined) set[to] = input[from];
  const newer = NEWER_FILTER_FIELDS.some((field) => input[field] !== undefined);
  if (newer) set.legacySubject = false;
  else if (legacy) set.legacySubject = true;
  Object.assign(set, ruleFieldsOf(input), timerRuleFieldsOf(input));
  return set;
}

/**
 * The project's channel UUIDs (each once) the `channels` parameter names (docs/api-reference.md, "Assigning integrations"): `*` all, `""` none, else
 * comma-separated untrimmed tokens, each one channel's UUID or exact name; undefined stays undefined.
 * @throws AppError(400) `empty channel identifier`, `invalid channel identifier: <token>` or
 *   `non-unique channel identifier: <token>`.
 */
export async function resolveChannels(projectId: string, spec: string | undefined): Promise<string[] | undefined> {
  if (spec === undefined) return undefined;
  if (spec === '') return [];
  const channels = await Channel.find({ projectId }, { _id: 1, name: 1 }).sort({ created: 1 }).lean<ChannelDoc[]>();
  if (spec === '*') return channels.map((channel) => channel._id);
  const ids = new Set<string>();
  for (const token of spec.split(',')) {
    if (token === '') throw new AppError(400, 'empty channel identifier');
    const matches = channels.filter((channel) => channel._id === token || channel.name === token);
    if (matches.length === 0) throw new AppError(400, `invalid channel identifier: ${token}`);
    if (matches.length > 1) throw new AppError(400, `non-unique channel identifier: ${token}`);
    ids.add(matches[0]._id);
  }
  return [...ids];
}

/** The upsert's filter within the project (docs/api-reference.md, "Upsert"); null when `unique` is empty or names a field the payload lacks. */
export function upsertFilter(projectId: string, input: CheckInput): QueryFilter<CheckDoc> | null {
  if (!input.unique?.length) return null;
  const filter: Record<string, unknown> = { projectId };
  for (const field of input.unique) {
    if (input[field] === undefined) return null;
    filter[UNIQUE_TO_FIELD[field]] = input[field];
  }
  return filter;
}
