/**
 * The ping path (docs/pinging.md, "Recording a ping"; docs/checks.md, "What changes a check"), HTTP and email alike; one ping is a batch of one. Per check, ONE store write applies its pings in
 * arrival order: counts them, moves state and deadline, owes their flips, remembers them in `recentPings`. Then the ping documents are inserted, the
 * flips completed (shared/alerts/outbox.ts) and the deadline jobs moved where a deadline came earlier.
 *
 * Crash points: after the store write, a journaled ping's replay finds it in `recentPings` and only inserts its document; owed flips and lost
 * deadline jobs are the sweep's.
 */
import DataLoader from 'dataloader';
import type { Types } from 'mongoose';
import { Ping, type PingDoc } from '../models/ping.js';
import { insertNew } from '../db.js';
import { MAX_RECENT_PINGS, RECENT_PINGS_MS, type CheckDoc, type OutboxFlip, type RecentPing } from '../models/check.js';
import { deadlineOf, type Signal } from '../domain/status.js';
import { applyRules } from '../domain/rules.js';
import { downRuleFields, wakeAt } from '../domain/timer-rules.js';
import { changeChecks, owedFlip, readChecks } from '../checks/store.js';
import { completeOwed } from '../alerts/outbox.js';
import { scheduleDeadlines, type DeadlineAt } from '../deadlines/schedule.js';
import { pruneCheckHistory } from './prune.js';
import { config } from '../config.js';
import type { Clock } from '../clock.js';
import type { Queues } from '../queues/index.js';
import { logger } from '../logger.js';

const log = logger.child({ module: 'pings' });

/** Old pings are pruned on every this-many-th ping (docs/pinging.md, "Pruning"). */
export const PRUNE_EVERY = 100;

/** What the caller knows of the request, stored on the ping; `_id` is chosen before the ping is applied. */
export type PingMeta = Pick<PingDoc, 'scheme' | 'remoteAddr' | 'method' | 'ua' | 'body' | 'exitStatus' | 'rid'> & { _id: Types.ObjectId };

/** Turns the check as read into the action to apply (methods and keyword filters); pure. */
export type ResolveSignal = (check: CheckDoc) => Signal;

/** One ping to apply. */
export interface PingItem {
  checkId: string;
  resolve: ResolveSignal;
  meta: PingMeta;
}

/** Clock and queues of the process applying pings. */
export interface PingDeps {
  clock: Clock;
  queues: Pick<Queues, 'deadlines' | 'notify' | 'redis'>;
}

/** What one check's write did: its pings (new and already counted), the flips they owe, and its job's due moment before them (null when unknown). */
interface Counted {
  pings: PingDoc[];
  owe: OutboxFlip[];
  before: Date | null;
}

/**
 * Folds a check's pings, in arrival order, into one change. A ping already in `recentPings` (a replay, or a write that won but was re-read) keeps its
 * `n` and changes nothing; the deadline before is then unknown, so its job is moved again.
 */
function countPings(check: CheckDoc, items: readonly PingItem[], now: Date): { change: { set: Partial<CheckDoc>; owe: OutboxFlip[] } | null; result: Counted } {
  const seen = new Map((check.recentPings ?? []).map((p) => [String(p._id), p]));
  let state = check;
  const set: Partial<CheckDoc> = {};
  const counted: Counted = { pings: [], owe: [], before: wakeAt(check) };
  const recent: RecentPing[] = [];
  for (const { resolve, meta } of items) {
    const known = seen.get(String(meta._id));
    if (known) {
      counted.pings.push({ ...meta, checkId: check._id, n: known.n, created: known.created, kind: known.kind });
      counted.before = null;
      continue;
    }
    const outcome = applyRules(state, resolve(state), now, meta.rid);
    const n = state.nPings + 1;
    // A flip into down starts the check's reminders (`repeat_every`); nothing for a check without rules.
    const rules = outcome.flip?.newStatus === 'down' ? downRuleFields(state, now) : {};
    Object.assign(set, outcome.set, rules);
    state = { ...state, ...outcome.set, ...rules, nPings: n };
    if (outcome.flip) counted.owe.push(owedFlip(outcome.flip, now, now));
    counted.pings.push({ ...meta, checkId: check._id, n, created: now, kind: outcome.kind });
    recent.push({ _id: meta._id, n, kind: outcome.kind, created: now });
  }
  if (recent.length === 0) return { change: null, result: counted };
  const kept = (check.recentPings ?? []).filter((p) => now.getTime() - p.created.getTime() < RECENT_PINGS_MS);
  set.recentPings = [...kept, ...recent].slice(-Math.max(MAX_RECENT_PINGS, recent.length));
  return { change: { set: { ...set, nPings: state.nPings, deadline: deadlineOf(state) }, owe: counted.owe }, result: counted };
}

/**
 * Applies a batch of pings.
 *
 * @param items - The pings, in arrival order.
 * @returns Each ping's `n`, or null when its check does not exist (same order as `items`).
 * @throws the MongoDB error of the store write or the ping insert (the batch's pings then fail).
 */
export async function recordPings(deps: PingDeps, items: readonly PingItem[]): Promise<(number | null)[]> {
  const byCheck = new Map<string, PingItem[]>();
  for (const item of items) byCheck.set(item.checkId, [...(byCheck.get(item.checkId) ?? []), item]);
  const now = deps.clock();
  const applied = await changeChecks(await readChecks([...byCheck.keys()]), (check) => countPings(check, byCheck.get(check._id)!, now));
  const counted = [...applied.values()];
  await insertNew(Ping, counted.flatMap(({ result }) => result.pings));

  // Everything the checks owe: a write re-read after it won left its flips there, not in `result.owe`.
  const owed = counted.flatMap(({ check }) => check.outbox.map((entry) => ({ check, entry })));
  // A later deadline leaves the job where it is: it fires early and the worker moves it
  // (one wake per deadline, not one Redis move per ping). An earlier or new one moves it now. A rule's moment (a late
  // warning, a reminder) counts as the deadline when earlier (shared/domain/rules.ts).
  const moved: DeadlineAt[] = counted.flatMap(({ check, result }) => {
    const wake = wakeAt(check);
    return wake && !(result.before && result.before <= wake) ? [{ checkId: check._id, at: wake }] : [];
  });
  // Pruned as of the last ping whose `n` is a multiple of 100, not the batch's last ping.
  const pruned = counted.flatMap(({ check, result }) => result.pings.filter((p) => p.n % PRUNE_EVERY === 0).slice(-1).map((p) => ({ check, n: p.n })));
  await Promise.all([
    completeOwed({ queues: deps.queues, notify: config.notify }, owed, now).catch((err: unknown) => log.error({ err }, 'cannot complete flips; the sweep will')),
    scheduleDeadlines(deps.queues.deadlines, moved, now).catch((err: unknown) => log.error({ err }, 'cannot schedule deadlines; the sweep will')),
    ...pruned.map(({ check, n }) => pruneCheckHistory(check, n, now).catch((err: unknown) => log.error({ err, checkId: check._id }, 'cannot prune'))),
  ]);
  const nOf = new Map(counted.flatMap(({ result }) => result.pings.map((p) => [String(p._id), p.n] as const)));
  return items.map((item) => nOf.get(String(item.meta._id)) ?? null);
}

/** Longest a ping waits for others to share its batch, milliseconds. */
const BATCH_WINDOW_MS = 1;
/** Most pings in one batch. */
const MAX_BATCH = 500;
/** Most batches a process applies at once; pings arriving meanwhile gather in the next. */
const MAX_BATCHES_IN_FLIGHT = 2;

/**
 * A batcher of pings: pings arriving within {@link BATCH_WINDOW_MS} of each other share one {@link recordPings}, at most {@link
 * MAX_BATCHES_IN_FLIGHT} at a time.
 *
 * @returns `load(item)` resolves with the ping's `n` (null when its check does not exist).
 */
export function pingBatcher(deps: PingDeps): DataLoader<PingItem, number | null> {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const schedule = (run: () => void): void => {
    if (inFlight < MAX_BATCHES_IN_FLIGHT) {
      inFlight++;
      setTimeout(run, BATCH_WINDOW_MS);
    } else {
      waiting.push(run);
    }
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else inFlight--;
  };
  return new DataLoader<PingItem, number | null>((items) => recordPings(deps, items).finally(release), {
    cache: false,
    maxBatchSize: MAX_BATCH,
    batchScheduleFn: schedule,
  });
}
