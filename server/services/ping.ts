/**
 * Turning a ping request into a recorded signal (behaviour.md §4.3): find the
 * check (by UUID, or by ping key and slug, creating it for `create=1`), check
 * the exit status and rid, pick the action, and apply it through
 * `recordSignal`, the one code path shared with inbound email.
 */
import { Check } from '../../shared/models/check.js';
import { Project } from '../../shared/models/project.js';
import { AppError } from '../../shared/errors.js';
import { classifyText } from '../../shared/domain/keywords.js';
import type { Signal } from '../../shared/domain/status.js';
import type { SignalItem } from '../../shared/services/signal-batch.js';
import {
  SIGNAL_PROJECTION,
  type PingMeta,
  type ResolveSignal,
  type SignalCheck,
  type SignalDeps,
} from '../../shared/services/signal.js';
import { provisionCheck, type ProvisionDeps } from './ping-provision.js';

/** Highest valid exit status (seed: integer 0 to 255). */
const MAX_EXIT_STATUS = 255;

/** `rid`: the canonical 8-4-4-4-12 hex form, any case (behaviour.md §4.3 step 9). */
const RID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Lenient UTF-8: invalid bytes become U+FFFD (behaviour.md §4.4 rule 1). */
const lenientUtf8 = new TextDecoder('utf-8');

/** How the URL names the check (behaviour.md §4.1). */
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

/** Dependencies of {@link handlePing}: `record` applies one ping (batched with concurrent ones, see signal-batch.ts). */
export type PingDeps = SignalDeps & ProvisionDeps & { record(item: SignalItem): Promise<number | null> };

const notFound = (): AppError => new AppError(404, 'not found', 'text');
const badUrl = (): AppError => new AppError(400, 'invalid url format', 'text');

/**
 * Records one ping, following behaviour.md §4.3 steps 1–11.
 *
 * @param deps - Clock, queues and Redis (for the auto-provisioning lock).
 * @param input - The parsed request.
 * @returns 201 when the check was created for this ping (`create=1`), else 200.
 * @throws AppError 404 `not found`, 400 `invalid url format` / `invalid uuid format`,
 *   409 `ambiguous slug` (all plain text); nothing is recorded then.
 */
export async function handlePing(deps: PingDeps, input: PingInput): Promise<200 | 201> {
  const found = input.target.by === 'uuid'
    ? { check: await Check.findById(input.target.uuid, SIGNAL_PROJECTION).lean<SignalCheck>(), created: false }
    : await findBySlug(deps, input, input.target);
  if (!found.check) throw notFound();
  const rid = validated(input);
  const resolve = resolverOf(actionOf(input), input.meta.method, input.meta.body);
  const n = await deps.record({ check: found.check, resolve, meta: { ...input.meta, exitStatus: input.exitStatus, rid } });
  if (n === null) throw notFound();
  return found.created ? 201 : 200;
}

/**
 * Slug route (behaviour.md §4.3 steps 1–2): one project query by ping key, one
 * check query by (project, slug); auto-provisioning when nothing matches and
 * `create=1`. The exit status and rid are checked before creating, so a
 * rejected request leaves no check behind.
 */
async function findBySlug(
  deps: PingDeps,
  input: PingInput,
  target: { pingKey: string; slug: string },
): Promise<{ check: SignalCheck | null; created: boolean }> {
  if (target.slug !== target.slug.toLowerCase()) throw badUrl();
  const project = await Project.findOne({ pingKey: target.pingKey }, { _id: 1, checkLimit: 1 }).lean();
  if (!project) throw notFound();
  const checks = await Check.find({ projectId: project._id, slug: target.slug }, SIGNAL_PROJECTION)
    .limit(2)
    .lean<SignalCheck[]>();
  if (checks.length > 1) throw new AppError(409, 'ambiguous slug', 'text');
  if (checks.length === 1) return { check: checks[0]!, created: false };
  if (!input.create) throw notFound();
  validated(input);
  const provisioned = await provisionCheck(deps, project, target.slug);
  if (provisioned === 'ambiguous') throw new AppError(409, 'ambiguous slug', 'text');
  return provisioned;
}

/**
 * Steps 4 and 9 of behaviour.md §4.3.
 *
 * @returns The rid, lowercase, or null when absent.
 * @throws AppError 400 `invalid url format` for an exit status over 255,
 *   `invalid uuid format` for a malformed rid.
 */
function validated(input: PingInput): string | null {
  if (input.exitStatus !== null && input.exitStatus > MAX_EXIT_STATUS) throw badUrl();
  if (input.rid === undefined) return null;
  if (!RID_RE.test(input.rid)) throw new AppError(400, 'invalid uuid format', 'text');
  return input.rid.toLowerCase();
}

/** The route's action with the exit status applied: 0 is success, 1–255 fail (§4.3 step 6). */
function actionOf(input: PingInput): Signal {
  if (input.exitStatus === null) return input.action;
  return input.exitStatus === 0 ? 'success' : 'fail';
}

/**
 * Steps 7–8 of behaviour.md §4.3, re-run against the check as re-read after a
 * concurrent write: `methods=POST` ignores other methods; `filter_http_body`
 * reclassifies any action from the leniently decoded body (§4.4). Email
 * filters play no part here.
 */
function resolverOf(action: Signal, method: string, body: Buffer | null): ResolveSignal {
  let text: string | undefined;
  return (check) => {
    if (check.methods === 'POST' && method !== 'POST') return 'ign';
    if (!check.filterHttpBody) return action;
    text ??= body ? lenientUtf8.decode(body) : '';
    return classifyText(text, check);
  };
}
