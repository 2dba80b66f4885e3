/**
 * `hc-admin import healthchecks-api`: a hosted Healthchecks account read through its Management API v3 (docs/migrating.md,
 * "From the API"), as a dump the import plans like any other. The API shows checks (UUID from `ping_url`, per-check badge key
 * from `badge_url`), their pings with bodies, their flips, and the channels' names and kinds; it does not show channel
 * settings, the project's ping key, badge key or read-only key, nor the people: those are reported, never invented.
 */
import { createHash } from 'node:crypto';
import { AppError } from '../errors.js';
import { scheduleKind } from '../domain/schedule.js';
import type { CheckFields, Dump, DumpRecord, FlipFields, PingFields } from './dump.js';

/** Options of {@link readAccount}. */
export interface ApiSource {
  /** The site's root, e.g. `https://healthchecks.io`. */
  url: string;
  /** A read-write API key of the project. */
  apiKey: string;
  /** Our project UUID to create or update; default derived from the URL and key, so a second run finds the first's. */
  projectId?: string;
  /** Called after each check is read. */
  progress?: (done: number, total: number) => void;
}

/** The dump read from the API, and what it could not carry. */
export interface AccountRead {
  dump: Dump;
  toSetUp: string[];
}

interface ApiCheck {
  name: string; slug: string; tags: string; desc: string; grace: number; timeout?: number; schedule?: string; tz?: string;
  n_pings: number; status: string; started: boolean; last_ping: string | null; manual_resume: boolean; methods: string;
  start_kw?: string; success_kw?: string; failure_kw?: string; filter_subject?: boolean; filter_body?: boolean;
  filter_http_body?: boolean; filter_default_fail?: boolean; ping_url: string; badge_url?: string;
}
interface ApiPing { type: string; date: string; n: number; scheme: string; remote_addr: string | null; method: string; ua: string; rid: string | null; exitstatus?: number | null; body_url?: string | null }

/** A Django duration for `seconds`. */
function duration(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const rest = new Date((seconds % 86400) * 1000).toISOString().slice(11, 19);
  return days > 0 ? `${days} ${rest}` : rest;
}

/** A UUID made of `text`'s SHA-256 (version 8 layout). */
function derivedUuid(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

async function get(source: ApiSource, path: string): Promise<Response> {
  const url = new URL(path, source.url.endsWith('/') ? source.url : `${source.url}/`);
  let res: Response;
  try {
    res = await fetch(url, { headers: { 'X-Api-Key': source.apiKey } });
  } catch (err) {
    throw new AppError(503, `cannot reach ${url.origin}: ${(err as Error).message}`);
  }
  if (res.status === 401) throw new AppError(400, `${url.origin} refused the API key (401)`);
  return res;
}

async function getJson<T>(source: ApiSource, path: string): Promise<T> {
  const res = await get(source, path);
  if (!res.ok) throw new AppError(502, `${path} answered ${res.status}`);
  return (await res.json()) as T;
}

function checkFields(c: ApiCheck, code: string, created: string, lastStart: string | null): CheckFields {
  const cronLike = typeof c.schedule === 'string';
  return {
    code, name: c.name, slug: c.slug ?? '', tags: c.tags ?? '', desc: c.desc ?? '', project: 1, created,
    kind: cronLike ? scheduleKind(c.schedule ?? '') : 'simple', timeout: duration(c.timeout ?? 86400), grace: duration(c.grace),
    schedule: c.schedule ?? '* * * * *', tz: c.tz ?? 'UTC', filter_subject: Boolean(c.filter_subject), filter_body: Boolean(c.filter_body),
    filter_http_body: Boolean(c.filter_http_body), filter_default_fail: Boolean(c.filter_default_fail), start_kw: c.start_kw ?? '',
    success_kw: c.success_kw ?? '', failure_kw: c.failure_kw ?? '', methods: c.methods ?? '', manual_resume: c.manual_resume,
    badge_key: /\/b\/\d\/([0-9a-f-]{36})\./.exec(c.badge_url ?? '')?.[1] ?? derivedUuid(`badge:${code}`), n_pings: c.n_pings,
    last_ping: c.last_ping, last_start: c.started ? lastStart : null, last_start_rid: null, last_duration: null, alert_after: null,
    status: c.status === 'grace' || c.status === 'started' ? 'up' : c.status,
  };
}

async function pingsOf(source: ApiSource, checkPk: number, code: string): Promise<PingFields[]> {
  const { pings } = await getJson<{ pings: ApiPing[] }>(source, `api/v3/checks/${code}/pings/`);
  const out: PingFields[] = [];
  for (const p of pings) {
    const body = p.body_url ? await get(source, `api/v3/checks/${code}/pings/${p.n}/body`) : null;
    const raw = body?.ok ? Buffer.from(await body.arrayBuffer()) : null;
    out.push({
      n: p.n, owner: checkPk, created: p.date, kind: p.type === 'success' ? null : p.type, scheme: p.scheme, remote_addr: p.remote_addr,
      method: p.method, ua: p.ua, body_raw: raw && raw.length > 0 ? raw.toString('base64') : null, object_size: null, exitstatus: p.exitstatus ?? null, rid: p.rid,
    });
  }
  return out;
}

/**
 * Reads the project the key belongs to.
 * @throws AppError(400) when the key is refused; AppError(502/503) when the site does not answer as the API does.
 */
export async function readAccount(source: ApiSource): Promise<AccountRead> {
  const { checks } = await getJson<{ checks: ApiCheck[] }>(source, 'api/v3/checks/');
  const { channels } = await getJson<{ channels: { id: string; name: string; kind: string }[] }>(source, 'api/v3/channels/');
  if (!Array.isArray(checks) || !Array.isArray(channels)) throw new AppError(502, 'the answers are not those of the Management API v3');
  const host = new URL(source.url).host;
  const code = source.projectId ?? derivedUuid(`project:${source.url}:${source.apiKey}`);
  const dump: Dump = { users: [], profiles: [], projects: [], members: [], credentials: [], checks: [], pings: [], channels: [], flips: [], notifications: [] };
  dump.projects.push({
    model: 'accounts.project', pk: 1,
    fields: { code, name: `Imported from ${host}`, owner: 0, api_key: source.apiKey, api_key_readonly: '', badge_key: derivedUuid(`badges:${code}`), ping_key: null },
  });
  // The API does not show `created`: checks get the moment of reading, in the API's order (creation order there).
  const readAt = Date.now();
  for (const [i, c] of checks.entries()) {
    const pk = i + 1;
    const uuid = /\/([0-9a-f-]{36})$/.exec(c.ping_url ?? '')?.[1];
    if (!uuid) throw new AppError(502, `check "${c.name}" has no ping URL with a UUID (a read-only key?)`);
    const pings = await pingsOf(source, pk, uuid);
    const created = new Date(readAt + i).toISOString();
    const lastStart = pings.find((p) => p.kind === 'start')?.created ?? null;
    dump.checks.push({ model: 'api.check', pk, fields: checkFields(c, uuid, created, lastStart) });
    dump.pings.push(...pings.map((fields): DumpRecord<PingFields> => ({ model: 'api.ping', pk: 0, fields })));
    const { flips } = await getJson<{ flips: { timestamp: string; up: number }[] }>(source, `api/v3/checks/${uuid}/flips/`);
    // Newest first in the answer: reversed, then a stable sort keeps flips of the same second in order.
    const ordered = [...flips].reverse().sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    for (const [j, f] of ordered.entries()) {
      const fields: FlipFields = { owner: pk, created: f.timestamp, processed: f.timestamp, old_status: j === 0 ? 'new' : ordered[j - 1].up ? 'up' : 'down', new_status: f.up ? 'up' : 'down' };
      dump.flips.push({ model: 'api.flip', pk: 0, fields });
    }
    source.progress?.(pk, checks.length);
  }
  const toSetUp = [
    ...channels.map((ch) => `channel "${ch.name || ch.kind}" (${ch.kind}): the API does not show its settings; set it up here and assign it`),
    'the ping key: the API does not show it, so slug ping URLs (/ping/<ping key>/<slug>) get this project\'s new one',
    'project badge URLs (/badge/…): the API does not show the badge key; per-check badge URLs (/b/…) keep working',
    'the read-only API key and the team: the API does not show them',
  ];
  return { dump, toSetUp };
}
