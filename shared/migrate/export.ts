/**
 * `hc-admin export healthchecks --project ID`: one project here as the dump Healthchecks writes
 * (`manage.py dumpdata auth.user accounts api`, docs/migrating.md "Leaving"), which `manage.py loaddata` and our import read back. API keys are
 * written in that site's stored form only where the import kept one (ours are SHA-256 digests, which it cannot check);
 * passwords as Django reads argon2 hashes; channel values as we store them.
 */
import { Check, type CheckDoc } from '../models/check.js';
import { Channel, type ChannelDoc } from '../models/channel.js';
import { Project, type ProjectDoc } from '../models/project.js';
import { Ping, type PingDoc } from '../models/ping.js';
import { Flip, type FlipDoc } from '../models/flip.js';
import { Notification, type NotificationDoc } from '../models/notification.js';
import { User, type UserDoc } from '../models/user.js';
import { Membership, type MembershipDoc } from '../models/membership.js';
import { AppError } from '../errors.js';
import type { DumpRecord } from './dump.js';
import { referenceValue } from './channels.js';

const ROLE: Record<string, string> = { rw: 'w', ro: 'r' };
const NAG: Record<string, string> = { off: '00:00:00', hourly: '01:00:00', daily: '1 00:00:00' };

/** A Django duration for `seconds`. */
export function djangoDuration(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const whole = Math.floor(seconds % 86400);
  const frac = seconds - Math.floor(seconds);
  const hms = new Date(whole * 1000).toISOString().slice(11, 19) + (frac > 0 ? `.${Math.round(frac * 1e6).toString().padStart(6, '0')}` : '');
  return days > 0 ? `${days} ${hms}` : hms;
}

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

function storedKey(prefix: string | null | undefined, digest: string | null | undefined): string {
  return prefix && digest ? `${prefix}.${digest}` : '';
}

function checkRecord(c: CheckDoc, pk: number): DumpRecord {
  return {
    model: 'api.check', pk,
    fields: {
      name: c.name, slug: c.slug, tags: c.tags, code: c._id, desc: c.desc, project: 1, created: iso(c.created), kind: c.kind,
      timeout: djangoDuration(c.timeout), grace: djangoDuration(c.grace), schedule: c.schedule, tz: c.tz, filter_subject: c.filterSubject,
      filter_body: c.filterBody, filter_http_body: c.filterHttpBody, filter_default_fail: c.filterDefaultFail, start_kw: c.startKw,
      success_kw: c.successKw, failure_kw: c.failureKw, methods: c.methods, manual_resume: c.manualResume, badge_key: c.badgeKey,
      n_pings: c.nPings, last_ping: iso(c.lastPing), last_start: iso(c.lastStart), last_start_rid: c.lastStartRid,
      last_duration: c.lastDurationMs === null ? null : djangoDuration(c.lastDurationMs / 1000), has_confirmation_link: false,
      alert_after: iso(c.deadline), status: c.status,
    },
  };
}

/** A stored body's bytes (a lean read gives a BSON Binary), or null. */
function bodyOf(p: PingDoc): Buffer | null {
  const body = p.body as unknown as { buffer: Uint8Array } | Buffer | null;
  if (!body) return null;
  return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer);
}

function pingRecord(p: PingDoc, owner: number, pk: number): DumpRecord {
  return {
    model: 'api.ping', pk,
    fields: {
      n: p.n, owner, created: iso(p.created), kind: p.kind === 'success' ? null : p.kind, scheme: p.scheme, remote_addr: p.remoteAddr,
      method: p.method, ua: p.ua, body_raw: bodyOf(p)?.toString('base64') ?? null, object_size: null, exitstatus: p.exitStatus, rid: p.rid,
    },
  };
}

function userRecords(users: UserDoc[], project: ProjectDoc): DumpRecord[] {
  return users.flatMap((u, i) => [
    {
      model: 'auth.user', pk: i + 1,
      fields: {
        password: u.passwordHash.startsWith('$') ? `argon2${u.passwordHash}` : u.passwordHash, last_login: null, is_superuser: false, username: u._id.slice(0, 30),
        first_name: '', last_name: '', email: u.email, is_staff: false, is_active: true, date_joined: iso(u.created), groups: [], user_permissions: [],
      },
    },
    {
      model: 'accounts.profile', pk: i + 1,
      fields: { user: i + 1, reports: u.reportPeriod, nag_period: NAG[u.reminderPeriod] ?? '00:00:00', tz: u.tz, ping_log_limit: project.pingLogLimit, check_limit: project.checkLimit, totp: u.totp[0]?.secret ?? null, totp_created: iso(u.totp[0]?.created) },
    },
  ]);
}

/**
 * The project's dump records, in the order `loaddata` needs (users, profiles, project, members, checks, channels, pings, flips,
 * notifications).
 * @throws AppError(404) when there is no such project.
 */
export async function exportProject(projectId: string): Promise<DumpRecord[]> {
  const project = await Project.findById(projectId).lean<ProjectDoc>();
  if (!project) throw new AppError(404, `no project with id ${projectId}`);
  const members = await Membership.find({ projectId }).sort({ created: 1 }).lean<MembershipDoc[]>();
  const users = await User.find({ _id: { $in: members.map((m) => m.userId) } }).sort({ created: 1 }).lean<UserDoc[]>();
  const userPk = new Map(users.map((u, i) => [u._id, i + 1]));
  const owner = members.find((m) => m.role === 'owner');
  const checks = await Check.find({ projectId }).sort({ created: 1 }).lean<CheckDoc[]>();
  const checkPk = new Map(checks.map((c, i) => [c._id, i + 1]));
  const channels = await Channel.find({ projectId }).sort({ created: 1 }).lean<ChannelDoc[]>();
  const channelPk = new Map(channels.map((c, i) => [c._id, i + 1]));
  const ids = checks.map((c) => c._id);
  const [pings, flips, notes] = await Promise.all([
    Ping.find({ checkId: { $in: ids } }).sort({ checkId: 1, n: 1 }).lean<PingDoc[]>(),
    Flip.find({ checkId: { $in: ids } }).sort({ created: 1 }).lean<FlipDoc[]>(),
    Notification.find({ checkId: { $in: ids } }).sort({ created: 1 }).lean<NotificationDoc[]>(),
  ]);
  const ref = project.reference;
  return [
    ...userRecords(users, project),
    {
      model: 'accounts.project', pk: 1,
      fields: {
        code: project._id, name: project.name, owner: owner ? userPk.get(owner.userId) : null, api_key: storedKey(ref?.apiKeyPrefix, ref?.apiKeyDigest),
        api_key_readonly: storedKey(ref?.apiKeyReadonlyPrefix, ref?.apiKeyReadonlyDigest), badge_key: project.badgeKey, ping_key: project.pingKey, show_slugs: false,
      },
    },
    ...members.filter((m) => m.role !== 'owner' || m !== owner).map((m, i) => ({ model: 'accounts.member', pk: i + 1, fields: { user: userPk.get(m.userId), project: 1, transfer_request_date: null, role: ROLE[m.role] ?? 'm' } })),
    ...checks.map((c, i) => checkRecord(c, i + 1)),
    ...channels.map((c, i) => ({
      model: 'api.channel', pk: i + 1,
      fields: {
        name: c.name, code: c._id, project: 1, created: iso(c.created), kind: c.kind, value: referenceValue(c.kind, c.value), email_verified: (c.unconfirmed ?? []).length === 0,
        disabled: c.disabled, last_notify: iso(c.lastNotify), last_notify_duration: null, last_error: c.lastError, checks: checks.filter((k) => k.channels.includes(c._id)).map((k) => checkPk.get(k._id)),
      },
    })),
    ...pings.map((p, i) => pingRecord(p, checkPk.get(p.checkId) ?? 0, i + 1)),
    ...flips.map((f, i) => ({ model: 'api.flip', pk: i + 1, fields: { owner: checkPk.get(f.checkId), created: iso(f.created), processed: iso(f.processed), old_status: f.oldStatus, new_status: f.newStatus, reason: f.reason } })),
    ...notes.filter((n) => channelPk.has(n.channelId)).map((n, i) => ({
      model: 'api.notification', pk: i + 1,
      fields: { code: n._id, owner: checkPk.get(n.checkId), check_status: n.status, channel: channelPk.get(n.channelId), created: iso(n.created), error: n.error },
    })),
  ];
}
