/**
 * The drain protocol of the deadline index (workers/deadline-drain.ts) against
 * the run's real Redis: one drainer at a time, no wake-up lost while another
 * drains, reschedules and removals that never overwrite a newer schedule, and
 * a lost lease that stops the drain, timers of settled checks removed without
 * losing a newer schedule. The pass applier is the test's own
 * function: what is under test is which entries the drain hands out, moves and
 * removes, not what applying them does (test/workers/deadlines.test.ts).
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { drainDeadlines, type ApplyPass, type DrainContext } from '../../workers/deadline-drain.js';
import { deadlineIndexKey, redisOf, scheduleDeadlines } from '../../shared/queues/deadlines.js';
import { testContext } from '../helpers/hooks.js';
import { pendingTimer } from '../helpers/deadlines.js';

const LEASE_MS = 5_000;
const T = 1_700_000_000_000;

describe('drainDeadlines', () => {
  const queue = () => testContext().queues.deadlines;
  const redis = () => redisOf(queue());
  const index = () => deadlineIndexKey(queue());
  const entries = async () => redis().zrange(index(), '0', '-1', 'WITHSCORES');
  const ctx = (apply: ApplyPass, nowMs: () => number = () => T, leaseMs = LEASE_MS): DrainContext => ({ redis: redis(), queue: queue(), apply, nowMs, leaseMs });
  const settleAll: ApplyPass = async (ids) => new Set(ids);
  const at = (checkId: string, ms: number) => ({ checkId, at: new Date(ms) });

  it('hands out the due entries in score order and removes those settled, leaving later ones', async () => {
    await redis().zadd(index(), T - 2, 'a', T, 'b', T + 1, 'later');
    const passes: string[][] = [];
    const taken = await drainDeadlines(ctx(async (ids) => (passes.push([...ids]), new Set(ids))), T);
    expect([taken, passes]).to.deep.equal([2, [['a', 'b']]]);
    expect(await entries()).to.deep.equal(['later', String(T + 1)]);
  });

  it("drains up to the waking timer's moment when the local clock is behind it", async () => {
    await redis().zadd(index(), T + 40, 'skewed');
    expect(await drainDeadlines(ctx(settleAll, () => T), T + 40)).to.equal(1);
    expect(await entries()).to.deep.equal([]);
  });

  it('keeps an entry a newer schedule moved while its pass ran', async () => {
    await redis().zadd(index(), T, 'moved', T, 'done');
    const apply: ApplyPass = async (ids) => {
      await redis().zadd(index(), T + 60_000, 'moved');
      return new Set(ids);
    };
    await drainDeadlines(ctx(apply), T);
    expect(await entries()).to.deep.equal(['moved', String(T + 60_000)]);
  });

  it('reschedules a check not due yet, with its timer, unless a newer schedule got there first', async () => {
    await redis().zadd(index(), T, 'early', T, 'raced');
    const apply: ApplyPass = async (ids, reschedule) => {
      await redis().zadd(index(), T + 5_000, 'raced');
      await reschedule(ids.map((checkId) => ({ checkId, at: new Date(T + 60_000) })));
      return new Set();
    };
    await drainDeadlines(ctx(apply), T);
    expect(await entries()).to.deep.equal(['raced', String(T + 5_000), 'early', String(T + 60_000)]);
    expect((await pendingTimer('early'))?.data.at).to.equal(T + 60_000);
    expect(await pendingTimer('raced')).to.equal(undefined);
  });

  it('takes again the entries a pass did not settle, and gives up after three passes without progress', async () => {
    await redis().zadd(index(), T, 'racing');
    let calls = 0;
    const apply: ApplyPass = async () => (calls++, new Set<string>());
    const error = await drainDeadlines(ctx(apply), T).then(() => undefined, (err: Error) => err);
    expect([calls, error?.message]).to.deep.equal([3, '1 due deadlines were not settled in 3 passes; retrying later']);
    expect(await entries()).to.deep.equal(['racing', String(T)]);
  });

  it('lets one drainer at a time apply, and the holder drains what fell due while it held the lease', async () => {
    await redis().zadd(index(), T, 'first', T + 1, 'second');
    const passes: string[][] = [];
    let waiterTook: number | undefined;
    const apply: ApplyPass = async (ids) => {
      passes.push([...ids]);
      // The timer of 'second' fires meanwhile: the lease is held, so it only raises the flag (to T + 1).
      if (ids.includes('first')) waiterTook = await drainDeadlines(ctx(async () => new Set()), T + 1);
      return new Set(ids);
    };
    // The holder's clock stays at T: it takes 'second' because the flag says T + 1.
    const taken = await drainDeadlines(ctx(apply, () => T), T);
    expect(waiterTook).to.equal(0);
    expect([taken, passes]).to.deep.equal([2, [['first'], ['second']]]);
    expect(await entries()).to.deep.equal([]);
    expect(await redis().exists(queue().toKey('drain-lease'), queue().toKey('drain-again'))).to.equal(0);
  });

  it('removes the pending timers of the checks it settles, and leaves those of checks not due', async () => {
    // Timers 60 s away, as when the entries are due before their timers (a mass down's later timers).
    await scheduleDeadlines(queue(), [at('a', T), at('b', T), at('later', T + 1_000)], new Date(T - 60_000));
    expect(await drainDeadlines(ctx(settleAll), T)).to.equal(2);
    expect(await pendingTimer('a')).to.equal(undefined);
    expect(await pendingTimer('b')).to.equal(undefined);
    expect((await pendingTimer('later'))?.data.at).to.equal(T + 1_000);
    expect(await entries()).to.deep.equal(['later', String(T + 1_000)]);
  });

  it('keeps the timers of checks it could not settle, so each still wakes a drain', async () => {
    await scheduleDeadlines(queue(), [at('racing', T)], new Date(T - 60_000));
    const error = await drainDeadlines(ctx(async () => new Set<string>()), T).then(() => undefined, (err: Error) => err);
    expect(error?.message).to.equal('1 due deadlines were not settled in 3 passes; retrying later');
    expect((await pendingTimer('racing'))?.data.at).to.equal(T);
  });

  it('gives a settled check scheduled again meanwhile a timer for its new deadline, although it removed that timer', async () => {
    await scheduleDeadlines(queue(), [at('pinged', T), at('done', T)], new Date(T - 60_000));
    const apply: ApplyPass = async (ids) => {
      // A ping of 'pinged' arrives after its pass stored it down: new deadline, and its timer replaced.
      await scheduleDeadlines(queue(), [at('pinged', T + 30_000)], new Date(T));
      return new Set(ids);
    };
    await drainDeadlines(ctx(apply), T);
    expect(await entries()).to.deep.equal(['pinged', String(T + 30_000)]);
    expect((await pendingTimer('pinged'))?.data.at).to.equal(T + 30_000);
    expect(await pendingTimer('done')).to.equal(undefined);
  });

  it('stops and fails when its lease is lost, leaving the entries for the retry', async () => {
    await redis().zadd(index(), T, 'a');
    const apply: ApplyPass = async () => {
      await redis().del(queue().toKey('drain-lease'));
      await sleep(250);
      return new Set();
    };
    const error = await drainDeadlines(ctx(apply, () => T, 300), T).then(() => undefined, (err: Error) => err);
    expect(error?.message).to.equal('the drain lease was lost; retrying later');
    expect(await entries()).to.deep.equal(['a', String(T)]);
  });
});
