/**
 * The Pinging API under `/ping/` (seed "Pinging API"; behaviour.md §4).
 *
 * Paths are matched here rather than by Express routes: the shapes of §4.1
 * (a canonical lowercase UUID, or a ping key and slug, each optionally followed
 * by a signal or an exit status) do not fit path-to-regexp without regexes,
 * and one handler for every method keeps the hot path short. Any method is a
 * ping and is recorded as sent; Express would route HEAD through GET handlers,
 * which `router.use` does not, so HEAD stays HEAD (and gets no body).
 * Every request's time is recorded in `hc_ping_duration_seconds` (shared/metrics.ts).
 */
import { Router, type Request } from 'express';
import type { AppDeps } from '../app.js';
import { config } from '../../shared/config.js';
import { AppError } from '../../shared/errors.js';
import { UUID_RE } from '../../shared/domain/ids.js';
import { handlePing, type PingInput, type PingTarget, type RouteAction } from '../services/ping.js';
import { readPingBody, remoteAddrOf, schemeOf, uaOf } from '../services/ping-request.js';
import { signalBatcher, type SignalItem } from '../../shared/services/signal-batch.js';
import { observePingSeconds } from '../../shared/metrics.js';
import { KnownChecks } from '../services/known-checks.js';

const MS_PER_SECOND = 1000;

/** Headers of every ping response, errors included (behaviour.md §4.2; seed: CORS on all). */
const PING_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Cache-Control': 'max-age=0, no-cache, no-store, must-revalidate, private',
  'Ping-Body-Limit': String(config.pingBodyLimitBytes),
};

/** `<ping_key>` and `<slug>` shapes (behaviour.md §4.1 rule 2); uppercase slugs are refused later with 400. */
const KEY_OR_SLUG_RE = /^[-A-Za-z0-9_]+$/;

/** `<exit_status>` shape; a negative number does not match (404). */
const EXIT_STATUS_RE = /^[0-9]+$/;

/** What a path asks for, before the query string. */
type ParsedPath = Pick<PingInput, 'target' | 'action' | 'exitStatus'>;

/**
 * Builds the `/ping` router.
 *
 * @param deps - Clock, queues and Redis of the web process. Concurrent pings
 *   share database round trips through one batcher per router.
 */
export function pingRouter(deps: AppDeps): Router {
  const router = Router();
  const batcher = signalBatcher(deps);
  const pingDeps = { ...deps, record: (item: SignalItem) => batcher.load(item), ack: { ms: config.pingAckMs, backlog: config.pingAckBacklog }, known: new KnownChecks() };
  router.use(async (req, res) => {
    // Timed to the end of the response, errors included: what a pinging client waits.
    const arrivedMs = performance.now();
    res.once('finish', () => observePingSeconds((performance.now() - arrivedMs) / MS_PER_SECOND));
    res.set(PING_HEADERS);
    const parsed = parsePath(req.path);
    if (!parsed) throw new AppError(404, 'not found', 'text');
    const query = req.query;
    const { body, cut } = await readPingBody(req, config.pingBodyLimitBytes, config.pingBodyReadCapBytes);
    // The rest of an over-long body stays unread: close the connection rather than read it to reuse it.
    if (cut) res.set('Connection', 'close');
    const status = await withinPingTimeout(
      handlePing(pingDeps, {
        ...parsed,
        rid: lastValue(query.rid),
        create: lastValue(query.create) === '1',
        meta: metaOf(req, body),
      }),
    );
    res.status(status).type('text/plain; charset=utf-8').send(status === 201 ? 'Created' : 'OK');
  });
  return router;
}

/**
 * The ping's outcome, or a 503 when the database has not answered within
 * PING_TIMEOUT_MS: the client is told the ping is not acknowledged (and may
 * retry) instead of waiting on a database that stopped answering. The write
 * itself goes on and may still be applied.
 *
 * @throws AppError 503 `service unavailable` (plain text) on timeout; the ping's own error otherwise.
 */
async function withinPingTimeout(ping: Promise<200 | 201>): Promise<200 | 201> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AppError(503, 'service unavailable', 'text')), config.pingTimeoutMs);
  });
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Matches a path below `/ping` against behaviour.md §4.1. `/<uuid>/<word>`
 * that is not a signal falls through to the slug form (ping key = the UUID).
 *
 * @param rawPath - For example `/0b5d…/start` or `/<ping_key>/<slug>/3`.
 * @returns null when no route matches (404).
 */
function parsePath(rawPath: string): ParsedPath | null {
  const path = rawPath.includes('%') ? decoded(rawPath) : rawPath;
  if (path === null) return null;
  const [, first = '', second, third, ...rest] = path.split('/');
  if (rest.length > 0) return null;
  if (third === undefined && UUID_RE.test(first)) {
    const uuid: PingTarget = { by: 'uuid', uuid: first };
    if (second === undefined || second === '') return { target: uuid, action: 'success', exitStatus: null };
    const suffix = suffixOf(second);
    if (suffix) return { target: uuid, ...suffix };
  }
  if (second === undefined || !KEY_OR_SLUG_RE.test(first) || !KEY_OR_SLUG_RE.test(second)) return null;
  const slug: PingTarget = { by: 'slug', pingKey: first, slug: second };
  if (third === undefined) return { target: slug, action: 'success', exitStatus: null };
  const suffix = suffixOf(third);
  return suffix ? { target: slug, ...suffix } : null;
}

/** A signal word or an exit status after the check's name; null for anything else. */
function suffixOf(segment: string): Pick<ParsedPath, 'action' | 'exitStatus'> | null {
  if (segment === 'start' || segment === 'fail' || segment === 'log') {
    return { action: segment satisfies RouteAction, exitStatus: null };
  }
  return EXIT_STATUS_RE.test(segment) ? { action: 'success', exitStatus: Number(segment) } : null;
}

/** The percent-decoded path, or null when its escapes are malformed. */
function decoded(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/** The last value of a query parameter, as the reference reads it; undefined when absent. */
function lastValue(value: unknown): string | undefined {
  const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof last === 'string' ? last : undefined;
}

/** Request data for the ping log (behaviour.md §1.5). */
function metaOf(req: Request, body: Buffer | null): PingInput['meta'] {
  return {
    scheme: schemeOf(req, config.trustProxy),
    remoteAddr: remoteAddrOf(req, config.trustProxy),
    method: req.method,
    ua: uaOf(req),
    body,
  };
}
