/**
 * The Pinging API under `/ping` (docs/pinging.md): a plain node:http listener, no Express on the service's hottest path (as
 * Healthchecks.io serves pings apart from its web framework); `server/app.ts` sends it every request whose path is `/ping` or starts with `/ping/`.
 * Any method is a ping, recorded as sent (HEAD answered without a body). Each request's time goes to `hc_ping_duration_seconds` (shared/metrics.ts).
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { parse as parseUrl } from 'node:url';
import { proxyOf, type AppDeps } from '../deps.js';
import { config } from '../../shared/config.js';
import { AppError } from '../../shared/errors.js';
import { logger, redactPingPath } from '../../shared/logger.js';
import { isDatabaseUnavailable } from '../../shared/unreachable.js';
import { observePingSeconds } from '../../shared/metrics.js';
import { pingBatcher, type PingItem } from '../../shared/pings/record.js';
import { UUID_RE } from '../../shared/domain/ids.js';
import { handlePing, type PingDeps, type PingInput, type PingTarget, type RouteAction } from './service.js';
import { readPingBody, uaOf, type PingBody } from './request.js';
import { clientAddressOf, NO_PROXY, schemeOf } from '../proxy.js';
import { KnownChecks } from './known-checks.js';

const log = logger.child({ module: 'http' });
const MS_PER_SECOND = 1000;
const PREFIX = '/ping';
const TEXT = 'text/plain; charset=utf-8';
/** `Retry-After` of a 503 (the ping not acknowledged: the database stalled, or the deferred backlog is full), seconds. */
const RETRY_AFTER_S = '5';
/** Headers of every ping response, errors included (docs/pinging.md, "Responses"). */
const PING_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Cache-Control': 'max-age=0, no-cache, no-store, must-revalidate, private',
  'Ping-Body-Limit': String(config.pingBodyLimitBytes),
};
/** The two answers of a recorded ping, headers built once. */
const ANSWERS = {
  200: { body: 'OK', headers: { ...PING_HEADERS, 'Content-Type': TEXT, 'Content-Length': '2' } },
  201: { body: 'Created', headers: { ...PING_HEADERS, 'Content-Type': TEXT, 'Content-Length': '7' } },
} as const;
const NO_BODY: PingBody = { body: null, cut: false };
/** `<ping_key>` and `<slug>` shapes (docs/pinging.md, "URLs"); uppercase slugs are refused later with 400. */
const KEY_OR_SLUG_RE = /^[-A-Za-z0-9_]+$/;
/** `<exit_status>` shape; a negative number does not match (404). */
const EXIT_STATUS_RE = /^[0-9]+$/;
/** What a path asks for, before the query string. */
type ParsedPath = Pick<PingInput, 'target' | 'action' | 'exitStatus'>;
/** `parseurl`'s fast case (what Express routes on): a path starting with `/` and none of these characters. */
const SLOW_URL_RE = /[\t\n\f\r #\u00a0\ufeff]/;

/**
 * The path and query string of `req.url` as Express's routing reads them (`parseurl`): undecoded; `url.parse` for an absolute URL or one with
 * whitespace or a fragment. The path (e.g. `/ping/<uuid>`) is then matched per docs/pinging.md, "URLs"; the query has no `?`, and is null when absent.
 */
export function splitUrl(url: string): { path: string; query: string | null } {
  if (url.charCodeAt(0) !== 0x2f || SLOW_URL_RE.test(url)) {
    const parsed = parseUrl(url);
    return { path: parsed.pathname ?? '', query: parsed.query };
  }
  const q = url.indexOf('?');
  return q === -1 ? { path: url, query: null } : { path: url.slice(0, q), query: url.slice(q + 1) };
}

/**
 * Whether an undecoded path (see {@link splitUrl}) is the Pinging API's (docs/pinging.md, "URLs"), as `app.use('/ping', …)` matched it: `/ping` itself or
 * below `/ping/`, case-sensitively; `/ping` and `/ping/` are then answered 404 `not found`.
 */
export function isPingPath(path: string): boolean {
  return path.startsWith(PREFIX) && (path.length === PREFIX.length || path.charCodeAt(PREFIX.length) === 0x2f);
}

/**
 * Builds the `/ping` request listener (docs/pinging.md, "Responses", "Recording a ping"): a ping is answered 200 `OK` or 201 `Created` (plain text), every response with
 * PING_HEADERS. Concurrent pings share database round trips through one batcher per listener; with `deps.journal`, pings are journaled and answered
 * per PING_ACK_MS (server/ping/service.ts).
 * @returns A listener for the paths {@link isPingPath} accepts; it never throws: every error is answered (see {@link sendError}).
 */
export function pingListener(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const batcher = pingBatcher(deps);
  const pingDeps: PingDeps = {
    ...deps,
    record: (item: PingItem) => batcher.load(item),
    ack: { ms: config.pingAckMs, backlog: config.pingAckBacklog, max: config.pingJournalMax },
    known: new KnownChecks(),
    proxy: proxyOf(deps),
  };
  return (req, res) => {
    // Timed to the end of the response, errors included: what a pinging client waits.
    const arrivedMs = performance.now();
    res.once('finish', () => observePingSeconds((performance.now() - arrivedMs) / MS_PER_SECOND));
    answer(pingDeps, req, res).catch((err: unknown) => sendError(req, res, err));
  };
}

/**
 * Reads, records and answers one ping.
 * @throws AppError 404/400/409 (plain text) for a request that names no check or is malformed; 503 when the ping timed out; the database's error.
 */
async function answer(deps: PingDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { path, query } = splitUrl(req.url ?? '');
  const parsed = parsePath(path.slice(PREFIX.length));
  if (!parsed) throw new AppError(404, 'not found', 'text');
  const { body, cut } = hasBody(req) ? await readPingBody(req, config.pingBodyLimitBytes, config.pingBodyReadCapBytes) : NO_BODY;
  // The rest of an over-long body stays unread: close the connection rather than read it to reuse it.
  if (cut) res.setHeader('Connection', 'close');
  const params = query === null ? null : parseQuery(query);
  const status = await withinPingTimeout(handlePing(deps, {
    ...parsed,
    rid: lastValue(params?.rid),
    create: lastValue(params?.create) === '1',
    meta: { scheme: schemeOf(req, deps.proxy ?? NO_PROXY), remoteAddr: clientAddressOf(req, deps.proxy ?? NO_PROXY), method: req.method!, ua: uaOf(req), body },
  }));
  res.writeHead(status, ANSWERS[status].headers).end(ANSWERS[status].body);
}

/**
 * Matches a path below `/ping` (e.g. `/0b5d…/start`, `/<ping_key>/<slug>/3`), percent-decoded first, against docs/pinging.md, "URLs": a canonical lowercase
 * UUID, or a ping key and slug, each optionally followed by a signal or an exit status. `/<uuid>/<word>` that is not a signal falls through to the
 * slug form (ping key = the UUID). Returns null when no route matches (404).
 */
function parsePath(rawPath: string): ParsedPath | null {
  let path = rawPath;
  try {
    if (path.includes('%')) path = decodeURIComponent(path);
  } catch {
    return null; // malformed escapes
  }
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

/** Whether the request has a body: HTTP/1.1 requests without Content-Length or Transfer-Encoding have none. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * The ping's outcome, or a 503 when the database has not answered within PING_TIMEOUT_MS (milliseconds): the client is told the ping is not
 * acknowledged (and may retry) rather than wait on a stalled database. The write itself goes on and may still be applied.
 * @throws AppError 503 `service unavailable` (plain text) on timeout; the ping's own error otherwise.
 */
function withinPingTimeout(ping: Promise<200 | 201>): Promise<200 | 201> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new AppError(503, 'service unavailable', 'text')), config.pingTimeoutMs);
    ping.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/** The last value of a query parameter, as the reference reads it; undefined when absent. */
function lastValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/**
 * Answers a failed ping as server/middleware/errors.ts answers the rest of the service: an AppError with its status and body shape, an unreachable
 * database with a logged 503 `service unavailable` (plain text), anything else with a logged 500 `{"error":"internal error"}`; paths logged redacted.
 */
function sendError(req: IncomingMessage, res: ServerResponse, err: unknown): void {
  const path = (): string => redactPingPath(splitUrl(req.url ?? '').path);
  let status = 500;
  let shape: 'text' | 'json' | 'empty' = 'json';
  let message = 'internal error';
  if (err instanceof AppError) {
    [status, shape, message] = [err.status, err.body, err.message];
  } else if (isDatabaseUnavailable(err)) {
    log.warn({ err: String(err), path: path() }, 'database unavailable');
    [status, shape, message] = [503, 'text', 'service unavailable'];
  } else {
    log.error({ err, method: req.method, path: path() }, 'unhandled error');
  }
  if (res.headersSent) return;
  const body = shape === 'empty' ? '' : shape === 'text' ? message : JSON.stringify({ error: message });
  const type: OutgoingHttpHeaders = shape === 'empty' ? {} : { 'Content-Type': shape === 'text' ? TEXT : 'application/json; charset=utf-8' };
  const retry = status === 503 ? { 'Retry-After': RETRY_AFTER_S } : {};
  res.writeHead(status, { ...PING_HEADERS, ...type, ...retry, 'Content-Length': String(Buffer.byteLength(body)) }).end(body);
}
