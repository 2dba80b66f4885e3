/**
 * From a validated payload to stored check fields: which fields an update
 * writes (behaviour.md §3.6 Create rule 6, Update rules 1–3), the deprecated
 * `subject`/`subject_fail` (§3.11), the `channels` parameter (§3.10) and the
 * upsert lookup (§3.9).
 */
import type { QueryFilter } from 'mongoose';
import type { CheckDoc } from '../../shared/models/check.js';
import { Channel, type ChannelDoc } from '../../shared/models/channel.js';
import { AppError } from '../../shared/errors.js';
import { slugify } from '../../shared/domain/slug.js';
import type { CheckInput, UniqueField } from '../schemas/check.js';
import type { ApiVersion } from '../middleware/version.js';

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

/** Newer email-filter fields, applied after the deprecated ones so they win (§3.11 rule 2). */
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

/** Stored field of each `unique` entry (§3.9 rule 3). */
const UNIQUE_TO_FIELD: Record<UniqueField, keyof CheckDoc> = {
  name: 'name',
  slug: 'slug',
  tags: 'tags',
  timeout: 'timeout',
  grace: 'grace',
};

/**
 * The check fields a payload writes; absent payload fields are left out.
 *
 * - In API v1 and v2 a `name` also sets `slug` to the slugified name; an
 *   explicit `slug` in the same payload wins (behaviour.md §7 item 5; v3 never
 *   derives it, §3.6 Create rule 5).
 * - A `schedule` makes a cron check and a given `timeout` is then not saved;
 *   otherwise a `timeout` makes a simple check (Create rule 6, Update rule 3).
 * - `subject` sets `success_kw` and `subject_fail` sets `failure_kw`; then
 *   `filter_subject` becomes whether either keyword list is non-empty (§3.11 rule 1).
 * - `legacySubject` records whether the email keywords now come from the
 *   deprecated fields: true when `subject` or `subject_fail` is given without
 *   `filter_subject`, `success_kw` or `failure_kw`; false when any of those
 *   three is given (§3.11 rule 4); unchanged otherwise.
 *
 * @param current - The keywords stored now (a create passes the defaults).
 * @param input - The validated payload.
 * @param version - The request's API version.
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
    set.kind = 'cron';
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
  return set as Partial<CheckDoc>;
}

/**
 * Resolves the `channels` parameter to channel UUIDs of the project (§3.10):
 * `*` is every channel, `""` none, otherwise comma-separated tokens (no
 * trimming) each matching exactly one channel by UUID or exact name.
 *
 * @param projectId - Only this project's channels match.
 * @param spec - The `channels` parameter; undefined leaves the assignment alone.
 * @returns The UUIDs (each once), or undefined when `spec` is undefined.
 * @throws AppError(400) `empty channel identifier`, `invalid channel
 *   identifier: <token>` or `non-unique channel identifier: <token>`.
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

/**
 * The MongoDB filter an upsert looks for (§3.9), or null when it cannot match:
 * `unique` empty or absent, or naming a field absent from the payload.
 *
 * @param projectId - Only this project's checks match.
 */
export function upsertFilter(projectId: string, input: CheckInput): QueryFilter<CheckDoc> | null {
  if (!input.unique?.length) return null;
  const filter: Record<string, unknown> = { projectId };
  for (const field of input.unique) {
    if (input[field] === undefined) return null;
    filter[UNIQUE_TO_FIELD[field]] = input[field];
  }
  return filter as QueryFilter<CheckDoc>;
}
