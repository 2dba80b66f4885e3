/**
 * Draining the deadline index (shared/queues/deadlines.ts): whoever holds the
 * drain lease takes the checks whose deadline has passed, up to
 * {@link DRAIN_BATCH} per pass and {@link PASSES_IN_FLIGHT} passes at once over
 * disjoint entries, applies them, and removes the entries it settled, until none
 * is due. One drainer at a time in the whole deployment, so no two workers apply
 * the same check at once.
 *
 * - **Lease.** `SET NX PX`, renewed every third of its length while the drain
 *   runs; a drainer whose renewal fails starts no new pass and fails (its timer is
 *   retried). The lease is shorter than half the job lock (see
 *   {@link drainLeaseMs}), so the BullMQ retry of a killed drainer's timer always
 *   finds it expired.
 * - **Wake-ups.** A timer that fires while another worker holds the lease records
 *   its moment in a flag (the latest one wins), in the same Lua step as its attempt
 *   at the lease (one round trip for each of the 999 timers of a mass down); the
 *   holder reads the flag after releasing the lease and drains again, up to at
 *   least that moment (so a holder whose clock is behind the timer's still takes
 *   those checks).
 * - **Reschedules.** A check read as not due yet is rescheduled only if its entry
 *   still has the score that was read (compare-and-set in Lua), so a newer
 *   schedule written meanwhile is never overwritten; settled entries are removed
 *   the same way.
 * - **Timers of settled checks.** A pass removes the pending timers of the checks
 *   it settled ({@link dropTimers}): they could only wake a drain with nothing to
 *   do, and a thousand checks due in the same instant would otherwise cost the
 *   worker 999 BullMQ jobs (about a sixth of its CPU during a mass down). The
 *   timers of checks not settled stay: each still owns its check should the drain
 *   fail.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { DRAIN_BATCH, deadlineIndexKey, deadlineTimerKey, timerOf, wakeDrain, type DeadlineAt } from '../shared/queues/deadlines.js';
import type { DeadlinePayload } from '../shared/queues/payloads.js';
import { logger } from '../shared/logger.js';

const log = logger.child({ module: 'deadline-drain' });

/** An index entry as taken: the check and its score (epoch milliseconds, as Redis prints it). */
export interface IndexEntry {
  checkId: string;
  score: string;
}

/**
 * Applies a pass. `reschedule` must be used for the checks found not due yet; the
 * returned set names the entries settled (removed from the index unless their
 * score changed meanwhile). Entries neither settled nor rescheduled lost to a
 * concurrent writer and are taken again.
 */
export type ApplyPass = (checkIds: readonly string[], reschedule: (early: readonly DeadlineAt[]) => Promise<void>) => Promise<ReadonlySet<string>>;

/** Passes of one drainer applied at the same time. */
const PASSES_IN_FLIGHT = 4;
/** Passes in a row that settle nothing before a drain gives up (its timer is retried). */
const MAX_IDLE_PASSES = 3;
/** While passes run with a slot free, how often the index is looked at again, milliseconds. */
const RECHECK_MS = 5;
/** While passes run, the longest the due entries go unread, however the count looks (see dueBeyondHeld), milliseconds. */
const MAX_UNREAD_MS = 100;
/** Drain rounds (lease taken, drained, released) one timer runs before it hands over to a new timer. */
const MAX_ROUNDS = 20;

/** Removes each `(checkId, score)` entry whose score is still the one read. */
const REMOVE_UNCHANGED = `
local removed = 0
for i = 1, #ARGV, 2 do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    removed = removed + redis.call('ZREM', KEYS[1], ARGV[i])
  end
end
return removed`;

/** Sets each `(checkId, readScore, newScore)` entry to its new score if it still has the one read; returns the ids set. */
const RESCHEDULE_UNCHANGED = `
local set = {}
for i = 1, #ARGV, 3 do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    redis.call('ZADD', KEYS[1], ARGV[i + 2], ARGV[i])
    set[#set + 1] = ARGV[i]
  end
end
return set`;

/**
 * Takes the lease KEYS[1] for token ARGV[1] and ARGV[2] milliseconds (returns 1), or,
 * while another drainer holds it, raises the wake-up flag KEYS[2] to moment ARGV[3]
 * (the latest wins) for as long (returns 0). One atomic step, so the holder, which reads
 * the flag after releasing the lease, always sees a flag raised while it held it.
 */
const TAKE_OR_FLAG = `
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 1 end
local current = redis.call('GET', KEYS[2])
if not current or tonumber(current) < tonumber(ARGV[3]) then
  redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[2])
end
return 0`;

/** Deletes the lease if this drainer still holds it. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Extends the lease if this drainer still holds it; 0 when it does not. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

/**
 * How long the drain lease lasts, milliseconds: 0.4 of the job lock (JOB_LOCK_MS).
 * BullMQ retries a killed worker's job once its lock, renewed every half lock, has
 * expired (at least half a lock after the kill); the lease has expired by then.
 */
export function drainLeaseMs(jobLockMs: number): number {
  return Math.floor(0.4 * jobLockMs);
}

/** What a drain works with. */
export interface DrainContext {
  /** The worker's Redis connection (the queue's Redis). */
  redis: Redis;
  /** The `deadlines` queue: key namespace, and timers to add. */
  queue: Queue<DeadlinePayload>;
  apply: ApplyPass;
  /** The current moment, epoch milliseconds. */
  nowMs: () => number;
  /** The lease's length, milliseconds ({@link drainLeaseMs}). */
  leaseMs: number;
}

function keys(queue: Pick<Queue, 'toKey'>): { index: string; lease: string; flag: string } {
  return { index: deadlineIndexKey(queue), lease: queue.toKey('drain-lease'), flag: queue.toKey('drain-again') };
}

/**
 * Drains every due entry of the index if this process gets the lease; otherwise
 * raises the wake-up flag for the holder.
 *
 * @param atMs - The waking timer's moment, epoch milliseconds: entries due up to
 *   at least then are drained, whatever this process's clock says.
 * @returns How many index entries were taken.
 * @throws the Redis or MongoDB error, a lost lease, or due entries left unsettled
 *   after {@link MAX_IDLE_PASSES} passes (the timer job is retried).
 */
export async function drainDeadlines(ctx: DrainContext, atMs: number): Promise<number> {
  const k = keys(ctx.queue);
  const token = randomUUID();
  let taken = 0;
  let upTo = atMs;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if ((await ctx.redis.eval(TAKE_OR_FLAG, 2, k.lease, k.flag, token, ctx.leaseMs, upTo)) === 0) return taken;
    try {
      taken += await drainHeld(ctx, k, token, upTo);
    } finally {
      await ctx.redis.eval(RELEASE, 1, k.lease, token);
    }
    const flag = await ctx.redis.getdel(k.flag);
    if (flag === null) return taken;
    upTo = Number(flag);
  }
  // Still woken after MAX_ROUNDS: a new timer carries on, so this job ends (and a shutdown is not held up).
  await wakeDrain(ctx.queue, upTo);
  return taken;
}

/** Drains while holding the lease, renewing it; entries due up to `max(now, upTo)`. */
async function drainHeld(ctx: DrainContext, k: ReturnType<typeof keys>, token: string, upTo: number): Promise<number> {
  const held = new Set<string>();
  const passes = new Set<Promise<void>>();
  let taken = 0;
  let idle = 0;
  let failure: unknown;
  let readAt = 0;
  const renewal = setInterval(() => {
    ctx.redis.eval(RENEW, 1, k.lease, token, ctx.leaseMs).then(
      (renewed) => (renewed === 0 ? (failure ??= new Error('the drain lease was lost; retrying later')) : undefined),
      (err: unknown) => (failure ??= err),
    );
  }, Math.max(1, Math.floor(ctx.leaseMs / 3)));

  const pass = async (entries: IndexEntry[]): Promise<void> => {
    const scores = new Map(entries.map((e) => [e.checkId, e.score]));
    const reschedule = (early: readonly DeadlineAt[]): Promise<void> => rescheduleUnchanged(ctx, early, scores);
    try {
      const settled = await ctx.apply(entries.map((e) => e.checkId), reschedule);
      const done = entries.filter((e) => settled.has(e.checkId));
      // Entries lost to a concurrent writer are taken again; a drain that keeps losing waits for its timer's retry.
      idle = done.length === 0 ? idle + 1 : 0;
      if (idle >= MAX_IDLE_PASSES) throw new Error(`${entries.length} due deadlines were not settled in ${idle} passes; retrying later`);
      if (done.length > 0) {
        await ctx.redis.eval(REMOVE_UNCHANGED, 1, k.index, ...done.flatMap((e) => [e.checkId, e.score]));
        await dropTimers(ctx, done);
      }
    } catch (err) {
      failure ??= err;
    } finally {
      for (const e of entries) held.delete(e.checkId);
    }
  };

  try {
    for (;;) {
      const until = Math.max(ctx.nowMs(), upTo);
      if (
        failure === undefined &&
        passes.size < PASSES_IN_FLIGHT &&
        (ctx.nowMs() - readAt >= MAX_UNREAD_MS || (await dueBeyondHeld(ctx.redis, k.index, until, held)))
      ) {
        readAt = ctx.nowMs();
        const flat = await ctx.redis.zrangebyscore(k.index, '-inf', until, 'WITHSCORES', 'LIMIT', 0, DRAIN_BATCH + held.size);
        const entries: IndexEntry[] = [];
        for (let i = 0; i < flat.length && entries.length < DRAIN_BATCH; i += 2) {
          if (!held.has(flat[i]!)) entries.push({ checkId: flat[i]!, score: flat[i + 1]! });
        }
        // A pass may have failed, or released entries, while the read was under way (replies on one
        // connection come in order, so an entry a finished pass removed is not in this read).
        if (entries.length > 0 && failure === undefined) {
          for (const e of entries) held.add(e.checkId);
          taken += entries.length;
          const running: Promise<void> = pass(entries).finally(() => passes.delete(running));
          passes.add(running);
          continue;
        }
      }
      if (passes.size === 0) break;
      // With a slot free, look again soon: a check falling due meanwhile does not wait for a running pass.
      await Promise.race(passes.size < PASSES_IN_FLIGHT && failure === undefined ? [...passes, sleep(RECHECK_MS)] : passes);
    }
  } finally {
    clearInterval(renewal);
  }
  if (failure !== undefined) throw failure;
  return taken;
}

/**
 * Whether the index may hold due entries beyond the `held` ones taken by running
 * passes. While passes run, the index is looked at every {@link RECHECK_MS}:
 * counting (ZCOUNT, one integer) instead of reading up to 2,000 entries that are
 * all held keeps that look from costing more CPU than the passes. A held entry
 * moved out of range meanwhile (rescheduled by its pass, or by a ping) can hide a
 * newly due one from the count, so the entries are read anyway once
 * {@link MAX_UNREAD_MS} has passed since the last read.
 *
 * @param until - Due up to this moment, epoch milliseconds.
 */
async function dueBeyondHeld(redis: Redis, index: string, until: number, held: ReadonlySet<string>): Promise<boolean> {
  if (held.size === 0) return true;
  const due = await redis.zcount(index, '-inf', until);
  // Compared after the count: a pass that ended meanwhile has released its entries (and removed the settled ones first).
  return due > held.size;
}

/**
 * Removes the pending timer jobs of checks whose index entries a pass settled and
 * removed; a timer being processed (locked: the drainer's own) is left as it is.
 *
 * A check scheduled again meanwhile has an index entry again, and the timer removed
 * may be its new one (or one BullMQ dropped as a duplicate of the old timer while that
 * was waiting), so every check whose entry exists after the removals gets a timer for
 * the entry's deadline. A schedule writes its entry before its timer, on one
 * connection, so a timer added after the removals belongs to an entry the read after
 * them sees; such a timer is kept (the one added here does not replace). Never throws:
 * should this fail part way, the timers left wake a drain for nothing, and a timer
 * missing for a rescheduled check is added by the sweep (ensureDeadlines).
 */
async function dropTimers(ctx: DrainContext, entries: readonly IndexEntry[]): Promise<void> {
  try {
    const { queue } = ctx;
    const jobIds = await Promise.all(entries.map((e) => queue.getDeduplicationJobId(deadlineTimerKey(e.checkId))));
    const removed = await Promise.all(jobIds.map(async (id) => id !== null && (await queue.remove(id)) === 1));
    const dropped = entries.filter((_, i) => removed[i]);
    if (dropped.length === 0) return;
    const scores = await ctx.redis.zmscore(deadlineIndexKey(queue), ...dropped.map((e) => e.checkId));
    const again = dropped.flatMap((e, i) => (scores[i] === null ? [] : [{ checkId: e.checkId, at: new Date(Number(scores[i])) }]));
    if (again.length > 0) await queue.addBulk(again.map((d) => timerOf(d, new Date(ctx.nowMs()), false)));
  } catch (err) {
    log.warn({ err }, 'timers of settled deadlines not removed; the sweep adds any a reschedule lost');
  }
}

/**
 * Moves each early check's entry to its later deadline if the entry still has the score
 * read, and replaces the timers of those moved.
 */
async function rescheduleUnchanged(ctx: DrainContext, early: readonly DeadlineAt[], scores: ReadonlyMap<string, string>): Promise<void> {
  const args = early.flatMap((d) => [d.checkId, scores.get(d.checkId) ?? '', d.at.getTime()]);
  if (args.length === 0) return;
  const moved = new Set((await ctx.redis.eval(RESCHEDULE_UNCHANGED, 1, deadlineIndexKey(ctx.queue), ...args)) as string[]);
  const now = new Date(ctx.nowMs());
  await ctx.queue.addBulk(early.filter((d) => moved.has(d.checkId)).map((d) => timerOf(d, now, true)));
}

/**
 * Puts a check in the index as due now, unless it is due earlier already (a job
 * of the one-job-per-check version of the service, left in Redis by an upgrade).
 *
 * @param nowMs - Epoch milliseconds.
 */
export async function markDue(redis: Redis, queue: Pick<Queue<DeadlinePayload>, 'toKey'>, checkId: string, nowMs: number): Promise<void> {
  await redis.zadd(deadlineIndexKey(queue), 'LT', nowMs, checkId);
}
