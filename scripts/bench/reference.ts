/**
 * The reference implementation, Healthchecks (Django), under the bench's ping
 * load: its checks are made and counted through its own management API v3 (the
 * `X-Api-Key` of a project, given to the bench), and its
 * uWSGI processes' CPU time is read from /proc. Only a server on this machine
 * (127.0.0.1 or localhost) is accepted.
 */
import { readFileSync } from 'node:fs';
import { Agent, fetch } from 'undici';
import { inBatches } from './common.js';
import { cpuMsOfPid } from './processes.js';
import { loadWithCpu, type LoadOptions, type LoadResult } from './throughput.js';

/**
 * Connections of the API calls: one per request, never reused. uWSGI's http-socket closes each connection
 * after its response without saying so (no `Connection: close`), and a pooled connection it has just closed
 * fails the next request sent on it.
 */
const oneShot = new Agent({ pipelining: 0 });

/** A Healthchecks running on this machine. */
export interface Reference {
  /** For example `http://127.0.0.1:8000`. */
  origin: string;
  /** A read-write API key of the bench's project. */
  apiKey: string;
  /** The uWSGI master's pid (its workers are its children), when known: for CPU time per request. */
  pid?: number;
}

/**
 * Checks that `url` is an http origin on this machine.
 *
 * @returns The origin, without a trailing slash or path.
 * @throws Error for any other host.
 */
export function localOrigin(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' || !['127.0.0.1', 'localhost'].includes(parsed.hostname)) {
    throw new Error(`the reference must be served over http on 127.0.0.1 (got ${url})`);
  }
  return parsed.origin;
}

/** One call of the management API; a status outside 2xx is an error. */
async function api(ref: Reference, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${ref.origin}/api/v3/${path}`, {
    dispatcher: oneShot,
    method,
    headers: { 'X-Api-Key': ref.apiKey, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`reference ${method} /api/v3/${path}: ${res.status} ${text.slice(0, 200)}`);
  return text === '' ? undefined : JSON.parse(text);
}

/**
 * Creates `count` checks through the API (timeout 1 day, grace 1 hour, as ours), then pings each once so that
 * they are established (up) before the load, as ours are: a first ping also records a flip.
 *
 * @param concurrency - Requests in flight at once.
 * @returns The checks' UUIDs.
 */
async function createReferenceChecks(ref: Reference, count: number, concurrency: number): Promise<string[]> {
  const uuids: string[] = [];
  const names = Array.from({ length: count }, (_, i) => `bench-${i}`);
  await inBatches(names, concurrency, async (name) => {
    const check = (await api(ref, 'POST', 'checks/', { name, timeout: 86400, grace: 3600 })) as { uuid: string };
    uuids.push(check.uuid);
  });
  await inBatches(uuids, concurrency, async (uuid) => {
    const res = await fetch(`${ref.origin}/ping/${uuid}`, { dispatcher: oneShot });
    if (!res.ok) throw new Error(`reference first ping of ${uuid}: ${res.status}`);
    await res.text();
  });
  return uuids;
}

/** The sum of `n_pings` over the checks `uuids` (one API call lists the project's checks). */
async function referenceNPings(ref: Reference, uuids: string[]): Promise<number> {
  const { checks } = (await api(ref, 'GET', 'checks/')) as { checks: { uuid: string; n_pings: number }[] };
  const ours = new Set(uuids);
  return checks.filter((c) => ours.has(c.uuid)).reduce((sum, c) => sum + c.n_pings, 0);
}

/** Deletes the checks `uuids` (with their pings and flips). */
async function deleteReferenceChecks(ref: Reference, uuids: string[], concurrency: number): Promise<void> {
  await inBatches(uuids, concurrency, async (uuid) => void (await api(ref, 'DELETE', `checks/${uuid}`)));
}

/** CPU time (user + system) of process `pid` and its children so far, milliseconds (undefined when /proc cannot tell). */
function cpuMsOfTree(pid: number): number | undefined {
  let children: number[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number);
  } catch {
    return undefined;
  }
  const own = cpuMsOfPid(pid);
  return own === undefined ? undefined : children.reduce((ms, child) => ms + (cpuMsOfTree(child) ?? 0), own);
}

/**
 * The bench's load against the reference, with the CPU time its uWSGI processes used per request meanwhile.
 *
 * @param paths - `/ping/<uuid>` of its checks.
 */
async function loadReference(ref: Reference, paths: string[], opts: LoadOptions): Promise<LoadResult> {
  return loadWithCpu(ref.origin, paths, opts, () => (ref.pid === undefined ? undefined : cpuMsOfTree(ref.pid)));
}

/**
 * The bench's load against the reference over `count` checks made (and pinged once) through its API, with the
 * pings it stored meanwhile (the sum of their n_pings, as for ours); the checks are deleted after.
 *
 * @param opts - The load's shape; its `connections` are also the API calls in flight at once.
 */
export async function measureReference(ref: Reference, count: number, opts: LoadOptions): Promise<{ result: LoadResult; stored: number }> {
  const uuids = await createReferenceChecks(ref, count, opts.connections);
  try {
    const before = await referenceNPings(ref, uuids);
    const result = await loadReference(ref, uuids.map((uuid) => `/ping/${uuid}`), opts);
    return { result, stored: (await referenceNPings(ref, uuids)) - before };
  } finally {
    await deleteReferenceChecks(ref, uuids, opts.connections);
  }
}
