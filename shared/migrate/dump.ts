/**
 * The JSON that Healthchecks' `manage.py dumpdata auth.user accounts api` writes (docs/migrating.md): one array of
 * `{"model", "pk", "fields"}` records. Parsed into the records an import reads, indexed by primary key; other models
 * (sessions, token buckets, payments) are ignored. Times are ISO strings, durations Django's `[D ]HH:MM:SS[.ffffff]`.
 */
import { AppError } from '../errors.js';

/** One record of the dump. */
export interface DumpRecord<F = Record<string, unknown>> {
  model: string;
  pk: number;
  fields: F;
}

/** `auth.user`. */
export interface UserFields { email: string; password: string; date_joined: string; is_active?: boolean }
/** `accounts.profile`. */
export interface ProfileFields { user: number; reports: string; nag_period: string; tz: string; ping_log_limit: number; check_limit: number; totp: string | null; totp_created: string | null }
/** `accounts.project`. */
export interface ProjectFields { code: string; name: string; owner: number; api_key: string; api_key_readonly: string; badge_key: string; ping_key: string | null }
/** `accounts.member`. */
export interface MemberFields { user: number; project: number; role: string }
/** `accounts.credential` (WebAuthn): `data` is base64 of the attested credential data. */
export interface CredentialFields { code: string; name: string; user: number; created: string; data: string }
/** `api.check`. */
export interface CheckFields {
  code: string; name: string; slug: string; tags: string; desc: string; project: number; created: string; kind: string;
  timeout: string; grace: string; schedule: string; tz: string; filter_subject: boolean; filter_body: boolean;
  filter_http_body?: boolean; filter_default_fail?: boolean; start_kw: string; success_kw: string; failure_kw: string;
  methods: string; manual_resume: boolean; badge_key: string; n_pings: number; last_ping: string | null;
  last_start: string | null; last_start_rid: string | null; last_duration: string | null; alert_after: string | null; status: string;
}
/** `api.ping`: `body_raw` is base64 (null when none); `kind` null is a success. */
export interface PingFields {
  n: number | null; owner: number; created: string; kind: string | null; scheme: string; remote_addr: string | null;
  method: string; ua: string; body_raw: string | null; object_size: number | null; exitstatus: number | null; rid: string | null;
}
/** `api.channel`: `checks` are check primary keys. */
export interface ChannelFields {
  code: string; name: string; project: number; created: string; kind: string; value: string; email_verified: boolean;
  disabled: boolean; last_notify: string | null; last_error: string; checks: number[];
}
/** `api.flip`. */
export interface FlipFields { owner: number; created: string; processed: string | null; old_status: string; new_status: string; reason?: string }
/** `api.notification`. */
export interface NotificationFields { code: string; owner: number | null; check_status: string; channel: number; created: string; error: string }

/** The dump, by model, each list in the dump's order. */
export interface Dump {
  users: DumpRecord<UserFields>[];
  profiles: DumpRecord<ProfileFields>[];
  projects: DumpRecord<ProjectFields>[];
  members: DumpRecord<MemberFields>[];
  credentials: DumpRecord<CredentialFields>[];
  checks: DumpRecord<CheckFields>[];
  pings: DumpRecord<PingFields>[];
  channels: DumpRecord<ChannelFields>[];
  flips: DumpRecord<FlipFields>[];
  notifications: DumpRecord<NotificationFields>[];
}

const MODELS: Record<string, keyof Dump> = {
  'auth.user': 'users', 'accounts.profile': 'profiles', 'accounts.project': 'projects', 'accounts.member': 'members',
  'accounts.credential': 'credentials', 'api.check': 'checks', 'api.ping': 'pings', 'api.channel': 'channels',
  'api.flip': 'flips', 'api.notification': 'notifications',
};

/** Fields each model must have, with their JSON types, so a foreign file is refused before anything is written. */
const REQUIRED: Partial<Record<keyof Dump, Record<string, string>>> = {
  users: { email: 'string', password: 'string' },
  projects: { code: 'string', owner: 'number', api_key: 'string', badge_key: 'string' },
  checks: { code: 'string', project: 'number', kind: 'string', timeout: 'string', grace: 'string', n_pings: 'number', status: 'string' },
  pings: { owner: 'number', created: 'string' },
  channels: { code: 'string', project: 'number', kind: 'string', value: 'string' },
  flips: { owner: 'number', created: 'string', new_status: 'string' },
};

function malformed(detail: string): AppError {
  return new AppError(400, `not a Healthchecks dump (manage.py dumpdata auth.user accounts api): ${detail}`);
}

/**
 * Parses a dump's text.
 * @throws AppError(400) `not a Healthchecks dump …: <what is wrong>` for text that is not JSON, not an array of records, holds
 *   no project, or a record lacking a field the import needs.
 */
export function parseDump(text: string): Dump {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw malformed(`not JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(data)) throw malformed('the top level is not an array');
  const dump: Dump = { users: [], profiles: [], projects: [], members: [], credentials: [], checks: [], pings: [], channels: [], flips: [], notifications: [] };
  for (const [i, item] of (data as unknown[]).entries()) {
    const record = item as Partial<DumpRecord>;
    if (!record || typeof record.model !== 'string' || typeof record.fields !== 'object' || record.fields === null) {
      throw malformed(`record ${i} has no model and fields`);
    }
    const list = MODELS[record.model];
    if (!list) continue;
    for (const [field, type] of Object.entries(REQUIRED[list] ?? {})) {
      if (typeof record.fields[field] !== type) throw malformed(`${record.model} ${String(record.pk)} has no ${type} "${field}"`);
    }
    (dump[list] as unknown as DumpRecord[]).push(record as DumpRecord);
  }
  if (dump.projects.length === 0) throw malformed('it holds no accounts.project');
  return dump;
}

/**
 * Seconds of a Django duration (`01:00:00`, `1 00:00:00`, `00:00:01.500000`).
 * @throws AppError(400) for text of another shape.
 */
export function durationSeconds(text: string): number {
  const match = /^(?:(-?\d+) )?(\d+):(\d\d):(\d\d)(?:\.(\d{1,6}))?$/.exec(text);
  if (!match) throw malformed(`"${text}" is not a duration`);
  const [, days = '0', h, m, s, frac = ''] = match;
  return Number(days) * 86400 + Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(`0.${frac || '0'}`);
}

/** A dump's time as a Date; null stays null. */
export function dumpTime(text: string | null | undefined): Date | null {
  return text ? new Date(text) : null;
}
