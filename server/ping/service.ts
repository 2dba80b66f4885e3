/**
 * Turning a ping request into a recorded signal (docs/pinging.md, "Recording a ping"): find the check (by UUID, or by ping key and slug, creating it for `create=1`),
 * check the exit status and rid, pick the action, journal it and apply it through the ping batcher (shared/pings/record.ts), the one code path shared
 * with inbound email. The HTTP side is server/ping/handler.ts.
 */
import mongoose from 'mongoose';
import { Check } from '../../shared/models/check.js';
import { Project } from '../../shared/models/project.js';
import { AppError } from '../../shared/errors.js';
import type { Signal } from '../../shared/domain/status.js';
import type { PingDeps as RecordDeps, PingItem, PingMeta } from '../../shared/pings/record.js';
import { provisionCheck, type ProvisionDeps } from '../services/provision.js';
import type { ProxySettings } from '../proxy.js';
import type { KnownChecks } from './known-checks.js';
import { acknowledged, entryOf, type PingJournal } from '../../shared/pings/journal.js';
import { resolverOf } from '../../shared/pings/resolve.js';
import { logger } from '../../shared/logger.js';
import { isDatabaseUnavailable } from '../../shared/unreachable.js';

const log = logger.child({ module: 'ping' });
/** Highest valid exit status (docs/pinging.md, "Recording a ping"). */
const MAX_EXIT_STATUS = 255;
/** `rid`: the canonical 8-4-4-4-12 hex form, any case (docs/pinging.md, "Recording a ping"). */
const RID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How the URL names the check (docs/pinging.md, "URLs"). */
export type PingTarget = { by: 'uuid'; uuid: string } | { by: 'slug'; pingKey: string; slug: string };
/** The signal a ping route names, before exit status, methods and filters. */
export type RouteAction = 'success' | 'start' | 'fail' | 'log';

/** A parsed ping request. */
export interface PingInput {
  target: PingTarget;
  action: RouteAction;
  /** From an exit-status route: any non-negative integer (checked here against 255); else null. */
  exitStatus: number | null;
  /** The `rid` query value as sent, or undefined when absent. */
  rid: string | undefined;
  /** `create=1` was sent (honoured on slug routes only). */
  create: boolean;
  /** Request data for the ping log. */
  meta: Pick<PingMeta, 'scheme' | 'remoteAddr' | 'method' | 'ua' | 'body'>;
}

/**
 * Dependencies of {@link handlePing}: `record` applies one ping (batched with concurrent ones, see shared/pings/record.ts); with a `journal`, each
 * ping is also journaled in Redis and answered per {@link acknowledged}: it waits for MongoDB at most `ack.ms` (PING_ACK_MS, milliseconds). With
 * `ack.ms` 0, or while `ack.backlog` (PING_ACK_BACKLOG) or more of the process's pings wait for MongoDB, or some it deferred wait for the workers, a
 * ping is deferred: answered once journaled, applied by the workers; past `ack.max` (PING_JOURNAL_MAX) deferred pings, refused with a 503.
 */
export type PingDeps = RecordDeps & ProvisionDeps & {
  record(item: PingItem): Promise<number | null>;
  journal?: PingJournal;
  /** With a journal: the check UUIDs known to exist. */
  known?: KnownChecks;
  ack?: { ms: number; backlog: number; max: number };
  /** Who is a proxy, whose X-Forwarded-For/-Proto give `remote_addr` and `scheme` (server/proxy.ts). */
  proxy?: ProxySettings;
};
const notFound = (): AppError => new AppError(404, 'not found', 'text');
const badUrl = (): AppError => new AppError(400, 'invalid url format', 'text');

/**
 * Records one ping, following docs/pinging.md, "Recording a ping". With `deps.journal` the ping is also journaled in Redis and may be answered before
 * MongoDB has it (per {@link acknowledged}, or at once when deferred: see {@link PingDeps}); without, once MongoDB has it.
 * @returns 201 when the check was created for this ping (`create=1`), else 200.
 * @throws AppError 404 `not found`, 400 `invalid url format` / `invalid uuid format`, 409 `ambiguous slug` (all plain text); nothing is recorded
 *   then. AppError 503 `service unavailable` when the deferred backlog is full. The database's error when the ping is neither stored nor journaled.
 */
export async function handlePing(deps: PingDeps, input: PingInput): Promise<200 | 201> {
  const { checkId, created } = await targetOf(deps, input);
  const rid = validated(input);
  const meta: PingMeta = { ...input.meta, exitStatus: input.exitStatus, rid, _id: new mongoose.Types.ObjectId() };
  const action = actionOf(input);
  const item = { checkId, resolve: resolverOf(action, input.meta.method, input.meta.body), meta };
  if (!deps.journal) {
    if ((await deps.record(item)) === null) throw notFound();
    return created ? 201 : 200;
  }
  const journal = deps.journal;
  const entry = entryOf(checkId, action, Date.now(), meta);
  const { ms, backlog, max } = deps.ack ?? { ms: 0, backlog: 1, max: Infinity };
  const defers = ms === 0 || journal.deferred > 0 || journal.inFlight.size >= backlog;
  if (defers && journal.deferred >= max) throw new AppError(503, 'service unavailable', 'text');
  // The pings read in one event-loop turn append together: one write on the journal's pipelining connection (journal-connection.ts).
  await endOfTurn();
  if (defers && (await journal.defer(entry).then(() => true, () => false))) return created ? 201 : 200;
  // Journaled before it is applied, so a ping the store counted always has its entry for a replay.
  const journaled = await journal.append(entry).catch((err: unknown) => {
    log.warn({ err }, 'cannot journal a ping; it is answered once MongoDB has it');
    return null;
  });
  const applied = deps.record(item);
  // Once MongoDB has the ping its entry goes; if MongoDB could not be reached, it stays for a replay.
  const settle = (keep: boolean): void => {
    if (journaled !== null && !keep) journal.done(journaled);
  };
  void applied
    .then(() => settle(false), (err: unknown) => settle(isDatabaseUnavailable(err)))
    .finally(() => journal.inFlight.delete(entry.id));
  if ((await acknowledged(applied, journaled !== null, ms)) === null) {
    deps.known?.forget(checkId);
    throw notFound();
  }
  return created ? 201 : 200;
}

let turnEnd: Promise<void> | null = null;
/** Resolves once the current event-loop turn's I/O callbacks have run (`setImmediate`): every ping read in that turn resumes in the same tick. */
function endOfTurn(): Promise<void> {
  turnEnd ??= new Promise((resolve) => setImmediate(() => {
    turnEnd = null;
    resolve();
  }));
  return turnEnd;
}

/** The check a ping names, by UUID (with a journal, known to exist; else the store finds out) or by ping key and slug; AppError 404 if none. */
async function targetOf(deps: PingDeps, input: PingInput): Promise<{ checkId: string; created: boolean }> {
  const { target } = input;
  if (target.by === 'uuid') {
    if (deps.journal && !(await deps.known!.exists(target.uuid))) throw notFound();
    return { checkId: target.uuid, created: false };
  }
  const { checkId, created } = await findBySlug(deps, input, target);
  if (!checkId) throw notFound();
  return { checkId, created };
}

/**
 * Slug route (docs/pinging.md, "Recording a ping"): one project query by ping key, one check query by (project, slug); auto-provisioning when nothing matches
 * and `create=1`. The exit status and rid are checked before creating, so a rejected request leaves no check behind.
 */
async function findBySlug(deps: PingDeps, input: PingInput, target: { pingKey: string; slug: string }): Promise<{ checkId: string | null; created: boolean }> {
  if (target.slug !== target.slug.toLowerCase()) throw badUrl();
  const project = await Project.findOne({ pingKey: target.pingKey }, { _id: 1, checkLimit: 1 }).lean();
  if (!project) throw notFound();
  const checks = await Check.find({ projectId: project._id, slug: target.slug }, { _id: 1 }).limit(2).lean<{ _id: string }[]>();
  if (checks.length > 1) throw new AppError(409, 'ambiguous slug', 'text');
  if (checks.length === 1) return { checkId: checks[0]._id, created: false };
  if (!input.create) throw notFound();
  validated(input);
  const provisioned = await provisionCheck(deps, project, target.slug);
  if (provisioned === 'ambiguous') throw new AppError(409, 'ambiguous slug', 'text');
  return { checkId: provisioned.check?._id ?? null, created: provisioned.created };
}

/**
 * The exit status and run id checks of docs/pinging.md, "Recording a ping": returns the rid, lowercase, or null when absent.
 * @throws AppError 400 `invalid url format` for an exit status over 255, `invalid uuid format` for a malformed rid.
 */
function validated(input: PingInput): string | null {
  if (input.exitStatus !== null && input.exitStatus > MAX_EXIT_STATUS) throw badUrl();
  if (input.rid === undefined) return null;
  if (!RID_RE.test(input.rid)) throw new AppError(400, 'invalid uuid format', 'text');
  return input.rid.toLowerCase();
}

/** The route's action with the exit status applied: 0 is success, 1–255 fail (docs/pinging.md, "Recording a ping"). */
function actionOf(input: PingInput): Signal {
  if (input.exitStatus === null) return input.action;
  return input.exitStatus === 0 ? 'success' : 'fail';
}
