/**
 * What an import of a Healthchecks dump will write (docs/migrating.md): every project with its keys, channels, checks and
 * history, and every person with their memberships. Pure: `--dry-run` prints it, the writer (write.ts) stores it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '../models/membership.js';
import type { ChannelDoc } from '../models/channel.js';
import type { ReportPeriod, ReminderPeriod } from '../domain/report-period.js';
import { hashApiKey } from '../services/projects.js';
import { sealSecret, splitStoredKey, type ReferenceCredentials } from '../services/reference-keys.js';
import { mapChannel } from './channels.js';
import { unconfirmedAfter } from '../services/email-channels.js';
import { checkConfigOf, checkStateOf, type CheckConfig, type CheckStateFields } from './convert.js';
import { durationSeconds, dumpTime, type CheckFields, type Dump, type DumpRecord, type FlipFields, type NotificationFields, type PingFields } from './dump.js';

/** A check to create or update. */
export interface CheckPlan {
  id: string;
  badgeKey: string;
  created: Date;
  config: CheckConfig;
  state: CheckStateFields;
  /** Its ping records, within the project's ping log limit, oldest first. */
  pings: PingFields[];
  flips: FlipFields[];
  /** Its notification records, with our channel UUID. */
  notifications: (NotificationFields & { channelId: string })[];
}

/** A project to create or update. */
export interface ProjectPlan {
  id: string;
  name: string;
  pingKey: string;
  badgeKey: string;
  apiKeyHash: string;
  apiKeyReadonlyHash: string;
  reference: ReferenceCredentials | undefined;
  pingLogLimit: number;
  checkLimit: number;
  created: Date;
  channels: Omit<ChannelDoc, 'projectId'>[];
  checks: CheckPlan[];
}

/** A person to create (or, when the address has an account here, to give the memberships). */
export interface UserPlan {
  email: string;
  passwordHash: string;
  created: Date;
  tz: string;
  reportPeriod: ReportPeriod;
  reminderPeriod: ReminderPeriod;
  totp: { _id: string; name: string; secret: string; created: Date }[];
  webauthn: { _id: string; name: string; publicKey: string; counter: number; transports: string[]; created: Date }[];
  memberships: { projectId: string; role: Role }[];
}

/** The whole import. */
export interface ImportPlan {
  projects: ProjectPlan[];
  users: UserPlan[];
  /** What is not imported and why, one line each (channels of a kind we lack, keys without the secret, …). */
  skipped: string[];
}

const ROLES: Record<string, Role> = { r: 'ro', w: 'rw', m: 'rw' };
const NAG: Record<number, ReminderPeriod> = { 3600: 'hourly', 86400: 'daily' };

function groupBy<T>(records: readonly DumpRecord<T>[], key: (f: T) => number | null): Map<number, DumpRecord<T>[]> {
  const out = new Map<number, DumpRecord<T>[]>();
  for (const r of records) {
    const k = key(r.fields);
    if (k === null) continue;
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

/** A digest no key has: a project whose key cannot be kept gets a fresh one with `hc-admin` or the web app. */
function unusableDigest(): string {
  return hashApiKey(randomBytes(32).toString('hex'));
}

/** Our digest of a key stored in plain text (older sites), or what the HMAC form needs kept; null for none. */
function keepKey(stored: string): { digest: string } | { prefix: string; hmac: string } | null {
  if (!stored) return null;
  const split = splitStoredKey(stored);
  return split ? { prefix: split.prefix, hmac: split.digest } : { digest: hashApiKey(stored) };
}

function projectKeys(name: string, rw: string, ro: string, secret: string | undefined, skipped: string[]) {
  const w = keepKey(rw);
  const r = keepKey(ro);
  const hmac = [w, r].some((k) => k && 'hmac' in k);
  if (hmac && !secret) skipped.push(`API keys of project "${name}": its SECRET_KEY was not given (--secret-key or HC_REFERENCE_SECRET_KEY)`);
  const reference: ReferenceCredentials | undefined =
    hmac && secret
      ? {
          secret: sealSecret(secret),
          apiKeyPrefix: w && 'hmac' in w ? w.prefix : null, apiKeyDigest: w && 'hmac' in w ? w.hmac : null,
          apiKeyReadonlyPrefix: r && 'hmac' in r ? r.prefix : null, apiKeyReadonlyDigest: r && 'hmac' in r ? r.hmac : null,
        }
      : secret ? { secret: sealSecret(secret), apiKeyPrefix: null, apiKeyDigest: null, apiKeyReadonlyPrefix: null, apiKeyReadonlyDigest: null } : undefined;
  return {
    apiKeyHash: w && 'digest' in w ? w.digest : unusableDigest(),
    apiKeyReadonlyHash: r && 'digest' in r ? r.digest : unusableDigest(),
    reference,
  };
}

/** A ping key for a project that had none: 22 lowercase letters and digits, as that site makes them. */
function freshPingKey(code: string): string {
  return createHash('sha256').update(`ping-key:${code}:${randomBytes(16).toString('hex')}`).digest('hex').slice(0, 22);
}

/**
 * Plans the import of a parsed dump.
 * @param secret - That site's SECRET_KEY; without it, hashed API keys and signed badge URLs are not kept (listed in `skipped`).
 * @throws AppError(400) from the dump's parsing of a bad duration.
 */
export function planImport(dump: Dump, secret: string | undefined): ImportPlan {
  const skipped: string[] = [];
  const profiles = new Map(dump.profiles.map((p) => [p.fields.user, p.fields]));
  const checksOf = groupBy(dump.checks, (f) => f.project);
  const channelsOf = groupBy(dump.channels, (f) => f.project);
  const pingsOf = groupBy(dump.pings, (f) => f.owner);
  const flipsOf = groupBy(dump.flips, (f) => f.owner);
  const notesOf = groupBy(dump.notifications, (f) => f.owner);
  const channelCode = new Map<number, string>();
  const projects = dump.projects.map(({ pk, fields: p }): ProjectPlan => {
    const name = p.name || `project ${p.code}`;
    const limit = profiles.get(p.owner)?.ping_log_limit ?? 100;
    const channels: ProjectPlan['channels'] = [];
    const assigned = new Map<number, string[]>();
    for (const { pk: channelPk, fields: c } of channelsOf.get(pk) ?? []) {
      const mapped = mapChannel(c.kind, c.value);
      if (!mapped.ok) {
        skipped.push(`channel "${c.name || c.kind}" (${c.code}) of project "${name}": ${mapped.reason}`);
        continue;
      }
      channelCode.set(channelPk, c.code);
      channels.push({
        _id: c.code, name: c.name, kind: mapped.kind, value: mapped.value, created: new Date(c.created), disabled: c.disabled,
        lastError: c.last_error ?? '', lastNotify: dumpTime(c.last_notify), lastNotifyDurationMs: null, unconfirmed: c.email_verified ? [] : unconfirmedAfter(null, mapped.kind, mapped.value),
      });
      for (const checkPk of c.checks ?? []) assigned.set(checkPk, [...(assigned.get(checkPk) ?? []), c.code]);
    }
    const checks = (checksOf.get(pk) ?? []).map(({ pk: checkPk, fields: c }: DumpRecord<CheckFields>): CheckPlan => {
      const config = checkConfigOf(c, assigned.get(checkPk) ?? []);
      const pings = (pingsOf.get(checkPk) ?? []).map((r) => r.fields).sort((a, b) => (a.n ?? 0) - (b.n ?? 0));
      const notifications = (notesOf.get(checkPk) ?? []).flatMap((r) => {
        const channelId = channelCode.get(r.fields.channel);
        return channelId ? [{ ...r.fields, channelId }] : [];
      });
      return {
        id: c.code, badgeKey: c.badge_key, created: new Date(c.created), config, state: checkStateOf(c, config),
        pings: pings.slice(Math.max(0, pings.length - limit)), flips: (flipsOf.get(checkPk) ?? []).map((r) => r.fields), notifications,
      };
    });
    const created = checks.reduce((min, c) => (c.created < min ? c.created : min), new Date());
    return {
      id: p.code, name: p.name, pingKey: p.ping_key || freshPingKey(p.code), badgeKey: p.badge_key, ...projectKeys(name, p.api_key, p.api_key_readonly, secret, skipped),
      pingLogLimit: limit, checkLimit: Math.max(profiles.get(p.owner)?.check_limit ?? 20, checks.length), created, channels, checks,
    };
  });
  return { projects, users: planUsers(dump, skipped), skipped };
}

function planUsers(dump: Dump, skipped: string[]): UserPlan[] {
  const profiles = new Map(dump.profiles.map((p) => [p.fields.user, p.fields]));
  const credentials = groupBy(dump.credentials, (f) => f.user);
  const projectCode = new Map(dump.projects.map((p) => [p.pk, p.fields.code]));
  return dump.users.map(({ pk, fields: u }) => {
    const profile = profiles.get(pk);
    const report = profile?.reports;
    const memberships: UserPlan['memberships'] = [
      ...dump.projects.filter((p) => p.fields.owner === pk).map((p): UserPlan['memberships'][number] => ({ projectId: p.fields.code, role: 'owner' })),
      ...dump.members.filter((m) => m.fields.user === pk && projectCode.has(m.fields.project)).map((m) => ({ projectId: projectCode.get(m.fields.project) ?? '', role: ROLES[m.fields.role] ?? 'ro' })),
    ];
    if (u.password && !/^(pbkdf2_sha256|pbkdf2_sha1|argon2)\$/.test(u.password) && !u.password.startsWith('!')) {
      skipped.push(`password of ${u.email}: its hasher (${u.password.split('$')[0]}) is not one we verify; they reset it`);
    }
    return {
      email: u.email.trim().toLowerCase(), passwordHash: u.password || '!', created: new Date(u.date_joined), tz: profile?.tz || 'UTC',
      reportPeriod: report === 'weekly' || report === 'monthly' || report === 'daily' ? report : 'off',
      reminderPeriod: profile ? (NAG[durationSeconds(profile.nag_period)] ?? 'off') : 'off',
      totp: profile?.totp ? [{ _id: `hc-${pk}`, name: 'Authenticator app', secret: profile.totp, created: dumpTime(profile.totp_created) ?? new Date(u.date_joined) }] : [],
      webauthn: (credentials.get(pk) ?? []).flatMap((c) => credentialOf(c.fields.data, c.fields.name, new Date(c.fields.created)) ?? []),
      memberships,
    };
  });
}

/** A WebAuthn credential from fido2's attested credential data: AAGUID (16 bytes), id length (2), id, COSE key. */
function credentialOf(data: string, name: string, created: Date): UserPlan['webauthn'][number] | null {
  const raw = Buffer.from(data, 'base64');
  if (raw.length < 18) return null;
  const idLength = raw.readUInt16BE(16);
  if (raw.length <= 18 + idLength) return null;
  const id = raw.subarray(18, 18 + idLength).toString('base64url');
  return { _id: id, name, publicKey: raw.subarray(18 + idLength).toString('base64url'), counter: 0, transports: [], created };
}
