/**
 * Stores an import plan (plan.ts) after its conflicts were ruled out (conflicts.ts). Every step is an upsert or an insert
 * that skips what exists, so a second run updates what the first made and duplicates nothing. New checks are inserted as a
 * new API check is, with their settings only; their state (status, last ping, count, deadline) is then written by the
 * check store (shared/checks/store.ts), and each deadline is scheduled (the sweep schedules it too when Redis was away).
 */
import { randomUUID } from 'node:crypto';
import type { Model } from 'mongoose';
import { Check, type CheckDoc } from '../models/check.js';
import { Channel } from '../models/channel.js';
import { Project } from '../models/project.js';
import { Ping, type PingDoc } from '../models/ping.js';
import { Flip } from '../models/flip.js';
import { Notification } from '../models/notification.js';
import { User } from '../models/user.js';
import { Membership } from '../models/membership.js';
import { changeChecks, readChecks } from '../checks/store.js';
import { deadlineOf } from '../domain/status.js';
import { wakeAt } from '../domain/timer-rules.js';
import { scheduleDeadlines } from '../deadlines/schedule.js';
import { nextDue } from '../reports/settings.js';
import type { Queues } from '../queues/index.js';
import { flipOf, notificationOf, pingOf } from './convert.js';
import type { CheckPlan, ImportPlan, ProjectPlan } from './plan.js';

/** Documents per insert. */
const BATCH = 2000;

/** What an import wrote. */
export interface ImportCounts {
  projects: number;
  users: number;
  channels: number;
  checksCreated: number;
  checksUpdated: number;
  pings: number;
  flips: number;
  notifications: number;
}

/** Options of {@link writePlan}. */
export interface WriteOptions {
  /** Where deadline jobs go; without, the sweep adds them as each nears. */
  queues?: Queues;
  now: Date;
  /** Called as checks are stored: how many of how many. */
  progress?: (done: number, total: number) => void;
}

/** Inserts in flight at once. */
const LANES = 4;

/** Inserts one batch, skipping documents whose unique key exists; returns how many were new. */
async function insertBatch(model: Model<never>, docs: readonly object[]): Promise<number> {
  try {
    return (await model.collection.insertMany(docs, { ordered: false })).insertedCount;
  } catch (err) {
    const e = err as { code?: number; writeErrors?: { code?: number }[] | { code?: number }; insertedCount?: number; result?: { insertedCount?: number } };
    const errors = Array.isArray(e.writeErrors) ? e.writeErrors : e.writeErrors ? [e.writeErrors] : [{ code: e.code }];
    if (!errors.every((w) => w.code === 11000)) throw err;
    return e.insertedCount ?? e.result?.insertedCount ?? 0;
  }
}

/** Inserts documents in batches, {@link LANES} at a time, skipping those whose unique key exists; returns how many were new. */
async function insertNew(model: Model<never>, docs: readonly object[]): Promise<number> {
  let inserted = 0;
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next; i < docs.length; i = next) {
      next += BATCH;
      const n = await insertBatch(model, docs.slice(i, i + BATCH));
      inserted += n;
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  return inserted;
}

async function writeProject(p: ProjectPlan): Promise<void> {
  const set = { name: p.name, pingKey: p.pingKey, badgeKey: p.badgeKey, pingLogLimit: p.pingLogLimit, checkLimit: p.checkLimit, ...(p.reference ? { reference: p.reference } : {}) };
  await Project.updateOne({ _id: p.id }, { $set: set, $setOnInsert: { apiKeyHash: p.apiKeyHash, apiKeyReadonlyHash: p.apiKeyReadonlyHash, created: p.created } }, { upsert: true });
  for (const c of p.channels) {
    const { _id, created, lastError, lastNotify, lastNotifyDurationMs, unconfirmed, ...settings } = c;
    await Channel.updateOne(
      { _id },
      { $set: { ...settings, projectId: p.id }, $setOnInsert: { created, lastError, lastNotify, lastNotifyDurationMs, ...(unconfirmed ? { unconfirmed } : {}) } },
      { upsert: true },
    );
  }
}

/** Inserts the checks that are not here yet, with their settings only (as the API creates a check). */
async function insertChecks(projectId: string, plans: readonly CheckPlan[]): Promise<number> {
  const existing = new Set((await Check.find({ _id: { $in: plans.map((c) => c.id) } }, { _id: 1 }).lean<{ _id: string }[]>()).map((c) => c._id));
  const fresh = plans.filter((c) => !existing.has(c.id)).map((c) => ({ _id: c.id, projectId, badgeKey: c.badgeKey, created: c.created, ...c.config }));
  for (let i = 0; i < fresh.length; i += BATCH) await Check.insertMany(fresh.slice(i, i + BATCH), { ordered: false });
  return fresh.length;
}

/**
 * Writes each check's settings and, unless the check counted more pings here than the dump says (it was pinged here since),
 * its state, through the check store.
 */
async function applyStates(plans: readonly CheckPlan[]): Promise<CheckDoc[]> {
  const byId = new Map(plans.map((c) => [c.id, c]));
  const applied = await changeChecks(await readChecks([...byId.keys()]), (current) => {
    const plan = byId.get(current._id);
    if (!plan) return { change: null, result: null };
    const fresher = plan.state.nPings >= current.nPings;
    const set = fresher ? { ...plan.config, ...plan.state } : { ...plan.config, deadline: deadlineOf({ ...current, ...plan.config }) };
    return { change: { set }, result: null };
  });
  return [...applied.values()].map((a) => a.check);
}

async function writeHistory(plans: readonly CheckPlan[]): Promise<Pick<ImportCounts, 'pings' | 'flips' | 'notifications'>> {
  const pings: PingDoc[] = plans.flatMap((c) => c.pings.flatMap((p) => (p.n === null ? [] : [pingOf(c.id, p.n, p)])));
  const flipsByCheck = plans.map((c) => ({ c, flips: c.flips.map((f) => flipOf(c.id, f)) }));
  const flips = flipsByCheck.flatMap((x) => x.flips);
  const notes = flipsByCheck.flatMap(({ c, flips: own }) => c.notifications.flatMap((n) => notificationOf(n, c.id, n.channelId, own) ?? []));
  return {
    pings: await insertNew(Ping as unknown as Model<never>, pings),
    flips: await insertNew(Flip as unknown as Model<never>, flips),
    notifications: await insertNew(Notification as unknown as Model<never>, notes),
  };
}

async function writeUsers(plan: ImportPlan, now: Date): Promise<number> {
  let created = 0;
  for (const u of plan.users) {
    const found = await User.findOne({ email: u.email }, { _id: 1 }).lean<{ _id: string }>();
    let userId = found?._id;
    if (!userId) {
      userId = randomUUID();
      const { memberships: _m, ...fields } = u;
      await User.create({ _id: userId, ...fields, reportDue: nextDue(u.reportPeriod, u.tz, now), reminderDue: nextDue(u.reminderPeriod, u.tz, now) });
      created++;
    }
    for (const m of u.memberships) {
      await Membership.updateOne({ projectId: m.projectId, userId }, { $setOnInsert: { role: m.role, created: now } }, { upsert: true });
    }
  }
  return created;
}

/**
 * Stores the plan.
 * @returns What was written.
 * @throws the driver's error; a Redis error only when scheduling deadlines fails is logged by the caller, not thrown.
 */
export async function writePlan(plan: ImportPlan, options: WriteOptions): Promise<ImportCounts> {
  const counts: ImportCounts = { projects: 0, users: 0, channels: 0, checksCreated: 0, checksUpdated: 0, pings: 0, flips: 0, notifications: 0 };
  const total = plan.projects.reduce((n, p) => n + p.checks.length, 0);
  let done = 0;
  for (const p of plan.projects) {
    await writeProject(p);
    counts.projects++;
    counts.channels += p.channels.length;
    for (let i = 0; i < p.checks.length; i += BATCH) {
      const batch = p.checks.slice(i, i + BATCH);
      const created = await insertChecks(p.id, batch);
      counts.checksCreated += created;
      counts.checksUpdated += batch.length - created;
      const stored = await applyStates(batch);
      const history = await writeHistory(batch);
      counts.pings += history.pings;
      counts.flips += history.flips;
      counts.notifications += history.notifications;
      const wakes = stored.flatMap((c) => {
        const at = wakeAt(c);
        return at ? [{ checkId: c._id, at }] : [];
      });
      if (options.queues) await scheduleDeadlines(options.queues.deadlines, wakes, options.now);
      done += batch.length;
      options.progress?.(done, total);
    }
  }
  counts.users = await writeUsers(plan, options.now);
  return counts;
}
