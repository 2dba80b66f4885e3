import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import mongoose from 'mongoose';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { Ping } from '../../../shared/models/ping.js';
import { Check } from '../../../shared/models/check.js';
import { config } from '../../../shared/config.js';
import { acknowledged, entryOf, journalRegistry, PingJournal } from '../../../shared/pings/journal.js';
import { replayJournalsOnce, replayEntries, replayOwnJournal } from '../../../shared/pings/replay.js';
import { recordPings, type PingDeps, type PingMeta } from '../../../shared/pings/record.js';
import type { Signal } from '../../../shared/domain/status.js';
import { bodyBytes, storedCheck, storedPings } from '../../helpers/pings.js';

const meta = (): PingMeta => ({
  _id: new mongoose.Types.ObjectId(), scheme: 'http', remoteAddr: '10.0.0.1', method: 'POST', ua: 'curl', body: Buffer.from('körper'), exitStatus: null, rid: null,
});

describe('ping journal', () => {
  let project: TestProject;
  let deps: PingDeps;
  let journal: PingJournal;
  beforeEach(async () => {
    project = await buildProject();
    deps = { clock: () => new Date(), queues: testContext().queues };
    journal = new PingJournal(testContext().redis, config.queuePrefix, 1000);
  });

  /** Journals pings as a web process that then dies would (registered, no lease). */
  async function journalOf(pings: { checkId: string; action: Signal; meta?: PingMeta }[]): Promise<void> {
    await testContext().redis.sadd(journalRegistry(config.queuePrefix), journal.instance);
    for (const p of pings) await journal.append(entryOf(p.checkId, p.action, Date.now(), p.meta ?? meta()));
  }

  it('a worker replays a dead process\'s journal in order, per check, and forgets the journal', async () => {
    const [a, b] = await Promise.all([buildCheck(project), buildCheck(project)]);
    await journalOf([
      { checkId: a._id, action: 'start' }, { checkId: b._id, action: 'fail' }, { checkId: a._id, action: 'success' }, { checkId: a._id, action: 'fail' },
    ]);
    expect(await replayJournalsOnce(deps, testContext().redis, config.queuePrefix)).to.equal(4);
    expect((await storedPings(a._id)).map((p) => [p.n, p.kind])).to.deep.equal([[1, 'start'], [2, 'success'], [3, 'fail']]);
    expect((await storedPings(b._id)).map((p) => p.kind)).to.deep.equal(['fail']);
    expect((await storedPings(a._id))[0].body?.toString()).to.equal('körper');
    expect([(await storedCheck(a._id)).status, (await storedCheck(b._id)).status]).to.deep.equal(['down', 'down']);
    const redis = testContext().redis;
    expect([await redis.exists(journal.keys.stream), await redis.scard(journalRegistry(config.queuePrefix))]).to.deep.equal([0, 0]);
  });

  it('leaves the journal of a live process (its lease is renewed) to that process', async () => {
    const check = await buildCheck(project);
    await journalOf([{ checkId: check._id, action: 'success' }]);
    await testContext().redis.set(journal.keys.alive, '1', 'PX', 10_000);
    expect(await replayJournalsOnce(deps, testContext().redis, config.queuePrefix)).to.equal(0);
    expect(await storedPings(check._id)).to.have.length(0);
  });

  it('does not store a ping twice when its entry is replayed after it was applied', async () => {
    const check = await buildCheck(project);
    const m = meta();
    expect(await recordPings(deps, [{ checkId: check._id, resolve: () => 'success', meta: m }])).to.deep.equal([1]);
    await journalOf([{ checkId: check._id, action: 'success', meta: m }, { checkId: check._id, action: 'fail' }]);
    expect(await replayJournalsOnce(deps, testContext().redis, config.queuePrefix)).to.equal(2);
    expect((await storedPings(check._id)).map((p) => [p.n, p.kind])).to.deep.equal([[1, 'success'], [2, 'fail']]);
    expect((await storedCheck(check._id)).nPings).to.equal(2);
  });

  it('only inserts the document of a ping its check counted before a crash cut off the insert (in recentPings)', async () => {
    const check = await buildCheck(project);
    const m = meta();
    expect(await recordPings(deps, [{ checkId: check._id, resolve: () => 'fail', meta: m }])).to.deep.equal([1]);
    const counted = await storedCheck(check._id);
    // The crash: the check's write (n_pings, status, recentPings) happened, the ping document never came.
    await Ping.deleteOne({ _id: m._id });
    await journalOf([{ checkId: check._id, action: 'fail', meta: m }, { checkId: check._id, action: 'success' }]);
    expect(await replayJournalsOnce(deps, testContext().redis, config.queuePrefix)).to.equal(2);
    const pings = await storedPings(check._id);
    expect(pings.map((p) => [String(p._id), p.n, p.kind])).to.deep.equal([[String(m._id), 1, 'fail'], [String(pings[1]._id), 2, 'success']]);
    expect(pings[0].created).to.deep.equal(counted.recentPings[0].created);
    expect(bodyBytes(pings[0])?.toString()).to.equal('körper');
    expect(await storedCheck(check._id)).to.include({ nPings: 2, status: 'up' });
  });

  it('inserts the missing document without counting it again or moving the check (replayed alone)', async () => {
    const check = await buildCheck(project);
    const m = meta();
    await recordPings(deps, [{ checkId: check._id, resolve: () => 'success', meta: m }]);
    await Ping.deleteOne({ _id: m._id });
    const before = await storedCheck(check._id);
    await replayEntries(deps, [entryOf(check._id, 'success', Date.now(), m)]);
    expect((await storedPings(check._id)).map((p) => [String(p._id), p.n, p.kind])).to.deep.equal([[String(m._id), 1, 'success']]);
    expect(await storedCheck(check._id)).to.deep.equal(before);
  });

  it('does nothing when the replayed ping is stored', async () => {
    const check = await buildCheck(project);
    const m = meta();
    await recordPings(deps, [{ checkId: check._id, resolve: () => 'success', meta: m }]);
    const [before, pings] = [await storedCheck(check._id), await storedPings(check._id)];
    await replayEntries(deps, [entryOf(check._id, 'fail', Date.now(), m)]);
    expect(await storedCheck(check._id)).to.deep.equal(before);
    expect(await storedPings(check._id)).to.deep.equal(pings);
  });

  it('drops an entry whose check was deleted', async () => {
    const check = await buildCheck(project);
    await Check.deleteOne({ _id: check._id });
    await journalOf([{ checkId: check._id, action: 'success' }]);
    expect(await replayJournalsOnce(deps, testContext().redis, config.queuePrefix)).to.equal(1);
    expect(await storedPings(check._id)).to.have.length(0);
  });

  it('a worker applies a live process\'s deferred pings in order, once none of its own are in progress, and counts them down', async () => {
    const redis = testContext().redis;
    const check = await buildCheck(project);
    const started = meta();
    await journalOf([{ checkId: check._id, action: 'start', meta: started }]);
    await redis.set(journal.keys.alive, '1', 'PX', 10_000);
    for (const action of ['success', 'fail', 'log'] as const) await journal.defer(entryOf(check._id, action, Date.now(), meta()));
    expect(journal.deferred).to.equal(3);
    // Its own ping in progress came first: the deferred ones wait for it.
    expect(await replayJournalsOnce(deps, redis, config.queuePrefix)).to.equal(0);
    await recordPings(deps, [{ checkId: check._id, resolve: () => 'start', meta: started }]);
    await redis.del(journal.keys.stream);
    expect(await replayJournalsOnce(deps, redis, config.queuePrefix)).to.equal(3);
    expect((await storedPings(check._id)).map((p) => [p.n, p.kind])).to.deep.equal([[1, 'start'], [2, 'success'], [3, 'fail'], [4, 'log']]);
    expect(await storedCheck(check._id)).to.include({ nPings: 4, status: 'down' });
    // The journal stays (its process lives); the process sees its deferred pings applied within one recount.
    expect([await redis.xlen(journal.keys.deferred), await redis.sismember(journalRegistry(config.queuePrefix), journal.instance)]).to.deep.equal([0, 1]);
    await sleep(250);
    expect(journal.deferred).to.equal(0);
    await journal.stop();
  });

  it('a worker replays a dead process\'s own entries before its deferred ones, then forgets both', async () => {
    const redis = testContext().redis;
    const check = await buildCheck(project);
    await journalOf([{ checkId: check._id, action: 'start' }]);
    await journal.defer(entryOf(check._id, 'success', Date.now(), meta()));
    expect(await replayJournalsOnce(deps, redis, config.queuePrefix)).to.equal(2);
    expect((await storedPings(check._id)).map((p) => p.kind)).to.deep.equal(['start', 'success']);
    expect([await redis.exists(journal.keys.stream, journal.keys.deferred), await redis.scard(journalRegistry(config.queuePrefix))]).to.deep.equal([0, 0]);
    await journal.stop();
  });

  it('a live process replays only its own entries that are old and not being applied', async () => {
    const check = await buildCheck(project);
    const old = entryOf(check._id, 'success', Date.now() - 60_000, meta());
    const young = entryOf(check._id, 'fail', Date.now(), meta());
    await journal.append(old);
    await journal.append(young);
    journal.inFlight.delete(old.id);
    expect(await replayOwnJournal(journal, deps, testContext().redis)).to.equal(1);
    expect((await storedPings(check._id)).map((p) => p.kind)).to.deep.equal(['success']);
    expect(await testContext().redis.xlen(journal.keys.stream)).to.equal(1);
  });

  describe('acknowledged', () => {
    const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

    it('answers with MongoDB\'s result when it comes within the wait', async () => {
      expect(await acknowledged(Promise.resolve(7), true, 1000)).to.equal(7);
      expect(await acknowledged(Promise.resolve(null), true, 1000)).to.equal(null);
    });

    it('answers `journaled` after the wait when MongoDB is slower, and at once when MongoDB cannot be reached', async () => {
      const started = Date.now();
      expect(await acknowledged(never(), true, 100)).to.equal('journaled');
      expect(Date.now() - started).to.be.at.least(95);
      const unreachable = Object.assign(new Error('connect ECONNREFUSED'), { name: 'MongoNetworkError' });
      expect(await acknowledged(Promise.reject(unreachable), true, 10_000)).to.equal('journaled');
    });

    it('fails with any other error of the application (a replay would fail the same way)', async () => {
      let error: unknown;
      await acknowledged(Promise.reject(new Error('unknown time zone')), true, 10_000).catch((err: unknown) => (error = err));
      expect(error).to.have.property('message', 'unknown time zone');
    });

    it('waits for MongoDB alone when the journal failed, and fails with it', async () => {
      const slow = sleep(150).then(() => 3);
      expect(await acknowledged(slow, false, 10)).to.equal(3);
      let error: unknown;
      await acknowledged(Promise.reject(new Error('db down')), false, 10).catch((err: unknown) => (error = err));
      expect(error).to.have.property('message', 'db down');
    });
  });
});
