/**
 * Healthchecks records as our documents (docs/migrating.md, "What is kept"). Pure: ids that must be the same on every
 * run (flips) are derived from what the dump says, so an import run again finds what it made.
 */
import { createHash } from 'node:crypto';
import { Types } from 'mongoose';
import type { CheckDoc, FlipReason, StoredStatus } from '../models/check.js';
import type { PingDoc, PingKind } from '../models/ping.js';
import type { FlipDoc } from '../models/flip.js';
import type { NotificationDoc } from '../models/notification.js';
import { deadlineOf } from '../domain/status.js';
import { durationSeconds, dumpTime, type CheckFields, type FlipFields, type NotificationFields, type PingFields } from './dump.js';

/** A check's settings: what an import writes when it creates the check, and again on a later run. */
export type CheckConfig = Pick<
  CheckDoc,
  | 'name' | 'slug' | 'tags' | 'desc' | 'kind' | 'timeout' | 'grace' | 'schedule' | 'tz' | 'filterSubject' | 'filterBody' | 'filterHttpBody'
  | 'filterDefaultFail' | 'startKw' | 'successKw' | 'failureKw' | 'methods' | 'manualResume' | 'channels'
>;

/** A check's state, written through the check store (shared/checks/store.ts). */
export type CheckStateFields = Pick<CheckDoc, 'status' | 'nPings' | 'lastPing' | 'lastStart' | 'lastStartRid' | 'lastDurationMs' | 'deadline'>;

const STATUSES: readonly StoredStatus[] = ['new', 'up', 'down', 'paused'];
const KINDS = ['simple', 'cron', 'oncalendar'] as const;

/** A stable ObjectId made of `text`'s SHA-1. */
export function stableObjectId(text: string): Types.ObjectId {
  return new Types.ObjectId(createHash('sha1').update(text).digest().subarray(0, 12));
}

/** A check's settings from its record; `channels` are our channel UUIDs. */
export function checkConfigOf(f: CheckFields, channels: string[]): CheckConfig {
  const kind = KINDS.find((k) => k === f.kind) ?? 'simple';
  return {
    name: f.name ?? '', slug: f.slug ?? '', tags: f.tags ?? '', desc: f.desc ?? '', kind,
    timeout: durationSeconds(f.timeout), grace: durationSeconds(f.grace), schedule: f.schedule ?? '* * * * *', tz: f.tz || 'UTC',
    filterSubject: Boolean(f.filter_subject), filterBody: Boolean(f.filter_body), filterHttpBody: Boolean(f.filter_http_body),
    filterDefaultFail: Boolean(f.filter_default_fail), startKw: f.start_kw ?? '', successKw: f.success_kw ?? '', failureKw: f.failure_kw ?? '',
    methods: f.methods === 'POST' ? 'POST' : '', manualResume: Boolean(f.manual_resume), channels,
  };
}

/**
 * A check's state from its record, with the deadline it is owed from its last ping (or its run in progress), computed
 * here as for any check (docs/migrating.md: an up check goes down when that site would have put it down).
 */
export function checkStateOf(f: CheckFields, config: CheckConfig): CheckStateFields {
  const status = STATUSES.find((s) => s === f.status) ?? 'new';
  const state = {
    status, nPings: f.n_pings, lastPing: dumpTime(f.last_ping), lastStart: dumpTime(f.last_start),
    lastStartRid: f.last_start ? f.last_start_rid : null, lastDurationMs: f.last_duration ? Math.round(durationSeconds(f.last_duration) * 1000) : null,
  };
  return { ...state, deadline: deadlineOf({ ...config, ...state }) };
}

/** Our stored kind of a ping record's `kind` (null is a success). */
function pingKindOf(kind: string | null): PingKind {
  return kind === 'start' || kind === 'fail' || kind === 'log' || kind === 'ign' ? kind : 'success';
}

/**
 * The `_id` of imported ping `n` of a check: the same for every run of an import, so a run again finds the ping already stored by
 * its primary key (a ping's identity is its `_id`; docs/architecture.md, "Indexes").
 */
function importedPingId(checkId: string, n: number): Types.ObjectId {
  return new Types.ObjectId(createHash('sha256').update(`imported ping ${checkId} ${n}`).digest().subarray(0, 12));
}

/**
 * The ping document an import stores: the one place that shapes it, so a change of the ping's `_id` is made here only.
 * @param checkId - Our check UUID (the Healthchecks check's code).
 * @param n - The ping's number in its check.
 */
export function pingDocument(checkId: string, n: number, p: Omit<PingDoc, 'checkId' | 'n'>): PingDoc {
  return { _id: importedPingId(checkId, n), checkId, n, created: p.created, kind: p.kind, scheme: p.scheme, remoteAddr: p.remoteAddr, method: p.method, ua: p.ua, body: p.body, exitStatus: p.exitStatus, rid: p.rid };
}

/** A ping record as our ping; a body kept in object storage (`object_size` set, no `body_raw`) is not in the dump and is null. */
export function pingOf(checkId: string, n: number, f: PingFields): PingDoc {
  const body = f.body_raw === null || f.body_raw === undefined ? null : Buffer.from(f.body_raw, 'base64');
  return pingDocument(checkId, n, {
    created: new Date(f.created), kind: pingKindOf(f.kind), scheme: f.scheme || 'http', remoteAddr: f.remote_addr ?? null,
    method: f.method ?? '', ua: f.ua ?? '', body: body && body.length === 0 ? null : body, exitStatus: f.exitstatus ?? null, rid: f.rid ?? null,
  });
}

/** A flip record as our flip, its `_id` derived from the check and the moment. */
export function flipOf(checkId: string, f: FlipFields): FlipDoc & { _id: Types.ObjectId } {
  const created = new Date(f.created);
  const reason: FlipReason = f.reason === 'timeout' || f.reason === 'fail' ? f.reason : '';
  const status = (s: string): StoredStatus => STATUSES.find((x) => x === s) ?? 'new';
  return {
    _id: stableObjectId(`flip:${checkId}:${created.toISOString()}:${f.old_status}:${f.new_status}`), checkId, created, recorded: created,
    processed: dumpTime(f.processed) ?? created, oldStatus: status(f.old_status), newStatus: status(f.new_status), reason,
  };
}

/**
 * A notification record as ours, tied to the flip it announced (the latest flip into its status at or before it); null
 * when there is none (the log was trimmed there). Delivered when it has no error, else failed with it.
 */
export function notificationOf(
  f: NotificationFields,
  checkId: string,
  channelId: string,
  flips: readonly (FlipDoc & { _id: Types.ObjectId })[],
): NotificationDoc | null {
  const created = new Date(f.created);
  const status = f.check_status === 'up' ? 'up' : 'down';
  const flip = flips.filter((x) => x.newStatus === status && x.created <= created).sort((a, b) => b.created.getTime() - a.created.getTime())[0];
  if (!flip) return null;
  const ok = f.error === '';
  return {
    _id: f.code, flipId: String(flip._id), checkId, channelId, status, flipCreated: flip.created, reason: flip.reason,
    state: ok ? 'delivered' : 'failed', error: f.error, attempts: 1, attemptLog: [{ started: created, finished: created, error: f.error }],
    claimToken: null, leaseUntil: null, sendingSince: null, created, delivered: ok ? created : null, updated: created,
  };
}
