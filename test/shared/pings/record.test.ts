import { expect } from 'chai';
import { Types } from 'mongoose';
import { pendingTimer } from '../../helpers/deadlines.js';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { Check } from '../../../shared/models/check.js';
import { Ping } from '../../../shared/models/ping.js';
import type { Signal } from '../../../shared/domain/status.js';
import { pingBatcher, recordPings, type PingDeps, type PingItem, type PingMeta, type ResolveSignal } from '../../../shared/pings/record.js';
import { storedCheck, storedFlips, storedPings, testClock, T0 } from '../../helpers/pings.js';

const meta = (): PingMeta => ({ _id: new Types.ObjectId(), scheme: 'http', remoteAddr: '10.0.0.1', method: 'GET', ua: '', body: null, exitStatus: null, rid: null });
const item = (checkId: string, resolve: Signal | ResolveSignal): PingItem => ({ checkId, resolve: typeof resolve === 'function' ? resolve : () => resolve, meta: meta() });

describe('recordPings (shared/pings/record.ts)', () => {
  let project: TestProject;
  let deps: PingDeps;
  beforeEach(async () => {
    project = await buildProject();
    deps = { clock: testClock().clock, queues: testContext().queues };
  });

  describe('one ping', () => {
    it('applies the ping to the check as stored (down, written by the deadline path): down→up', async () => {
      const check = await buildCheck(project, { status: 'up', lastPing: new Date(T0.getTime() - 3600_000) });
      await Check.updateOne({ _id: check._id }, { $set: { status: 'down', deadline: null } });
      expect(await recordPings(deps, [item(check._id, 'success')])).to.deep.equal([1]);
      expect((await storedCheck(check._id)).status).to.equal('up');
      expect((await storedFlips(check._id)).map((f) => [f.oldStatus, f.newStatus])).to.deep.equal([['down', 'up']]);
    });

    it('logs the ping as ignored when the check is paused with manual_resume', async () => {
      const check = await buildCheck(project, { status: 'up', lastPing: T0 });
      await Check.updateOne({ _id: check._id }, { $set: { status: 'paused', manualResume: true } });
      await recordPings(deps, [item(check._id, 'fail')]);
      expect((await storedPings(check._id)).map((p) => p.kind)).to.deep.equal(['ign']);
      expect((await storedCheck(check._id)).status).to.equal('paused');
    });

    it('resolves the action against the check as stored (methods changed to POST)', async () => {
      const check = await buildCheck(project);
      await Check.updateOne({ _id: check._id }, { $set: { methods: 'POST' } });
      await recordPings(deps, [item(check._id, (c) => (c.methods === 'POST' ? 'ign' : 'success'))]);
      expect((await storedPings(check._id))[0].kind).to.equal('ign');
      expect((await storedCheck(check._id)).status).to.equal('new');
    });

    it('continues after pings recorded before, taking the next number', async () => {
      const check = await buildCheck(project);
      await recordPings(deps, [item(check._id, 'success')]);
      expect(await recordPings(deps, [item(check._id, 'fail')])).to.deep.equal([2]);
      expect((await storedPings(check._id)).map((p) => [p.n, p.kind])).to.deep.equal([[1, 'success'], [2, 'fail']]);
      expect(await storedCheck(check._id)).to.include({ nPings: 2, status: 'down' });
    });

    it('stores the ping under the id it was given and remembers it in recentPings', async () => {
      const check = await buildCheck(project);
      const ping = item(check._id, 'success');
      await recordPings(deps, [ping]);
      expect(String((await storedPings(check._id))[0]._id)).to.equal(String(ping.meta._id));
      const recent = (await storedCheck(check._id)).recentPings;
      expect(recent.map((p) => [String(p._id), p.n, p.kind])).to.deep.equal([[String(ping.meta._id), 1, 'success']]);
    });

    it('returns null and leaves no ping when the check does not exist', async () => {
      const check = await buildCheck(project);
      await Check.deleteOne({ _id: check._id });
      expect(await recordPings(deps, [item(check._id, 'success')])).to.deep.equal([null]);
      expect(await Ping.countDocuments({ checkId: check._id })).to.equal(0);
    });

    it("schedules the check's deadline: its one delayed job", async () => {
      const check = await buildCheck(project, { timeout: 60, grace: 60 });
      await recordPings(deps, [item(check._id, 'success')]);
      const deadline = (await storedCheck(check._id)).deadline!;
      expect(deadline.getTime()).to.equal(T0.getTime() + 120_000);
      const jobs = await testContext().queues.deadlines.getJobs(['delayed', 'waiting']);
      const timer = await pendingTimer(check._id);
      expect(jobs.map((j) => j.id)).to.deep.equal([timer?.id]);
      expect(timer?.data).to.deep.equal({ checkId: check._id });
      expect(timer?.delay).to.equal(120_000);
    });

    it('leaves the job where it is when a ping pushes the deadline later (it fires early), and moves it when a ping brings it earlier', async () => {
      const tc = testClock();
      const clocked = { ...deps, clock: tc.clock };
      const check = await buildCheck(project, { timeout: 60, grace: 60 });
      await recordPings(clocked, [item(check._id, 'success')]);
      const first = await pendingTimer(check._id);
      tc.advance(30);
      await recordPings(clocked, [item(check._id, 'success')]);
      expect((await storedCheck(check._id)).deadline!.getTime()).to.equal(T0.getTime() + 150_000);
      expect(await pendingTimer(check._id)).to.deep.include({ id: first!.id, delay: 120_000 });
      // A start 40 s in: down at 40 + 60 s of grace, earlier than the job's 120 s.
      tc.advance(10);
      await recordPings(clocked, [item(check._id, 'start')]);
      const moved = await pendingTimer(check._id);
      expect(moved?.id).to.not.equal(first!.id);
      expect(moved?.delay).to.equal(60_000);
    });

    it('completes the flip it owes: flip stored, outbox emptied', async () => {
      const check = await buildCheck(project);
      await recordPings(deps, [item(check._id, 'fail')]);
      expect((await storedFlips(check._id)).map((f) => [f.oldStatus, f.newStatus, f.reason])).to.deep.equal([['new', 'down', 'fail']]);
      expect((await storedCheck(check._id)).outbox).to.deep.equal([]);
    });
  });

  describe('batches', () => {
    it('records pings to many checks in one batch, one ping each', async () => {
      const checks = await Promise.all([1, 2, 3, 4, 5].map(() => buildCheck(project)));
      const ns = await recordPings(deps, checks.map((check) => item(check._id, 'success')));
      expect(ns).to.deep.equal([1, 1, 1, 1, 1]);
      for (const check of checks) expect(await storedCheck(check._id)).to.include({ nPings: 1, status: 'up' });
    });

    it('applies several pings to one check in arrival order with consecutive numbers, in one write', async () => {
      const check = await buildCheck(project);
      const kinds = ['start', 'success', 'fail', 'success'] as const;
      const ns = await recordPings(deps, kinds.map((kind) => item(check._id, kind)));
      expect(ns).to.deep.equal([1, 2, 3, 4]);
      expect((await storedPings(check._id)).map((p) => [p.n, p.kind])).to.deep.equal([[1, 'start'], [2, 'success'], [3, 'fail'], [4, 'success']]);
      const flips = await storedFlips(check._id);
      expect(flips.map((f) => [f.oldStatus, f.newStatus])).to.have.deep.members([['new', 'up'], ['up', 'down'], ['down', 'up']]);
      const stored = await storedCheck(check._id);
      expect(stored).to.include({ nPings: 4, status: 'up', rev: 1 });
      expect(stored.outbox).to.deep.equal([]);
      expect(stored.recentPings.map((p) => p.n)).to.deep.equal([1, 2, 3, 4]);
    });

    it('interleaves pings to several checks, each check in its own order', async () => {
      const [a, b] = await Promise.all([buildCheck(project), buildCheck(project)]);
      const ns = await recordPings(deps, [item(a._id, 'success'), item(b._id, 'fail'), item(a._id, 'fail'), item(b._id, 'success'), item(a._id, 'success')]);
      expect(ns).to.deep.equal([1, 1, 2, 2, 3]);
      expect((await storedPings(a._id)).map((p) => p.kind)).to.deep.equal(['success', 'fail', 'success']);
      expect((await storedPings(b._id)).map((p) => p.kind)).to.deep.equal(['fail', 'success']);
      expect([(await storedCheck(a._id)).status, (await storedCheck(b._id)).status]).to.deep.equal(['up', 'up']);
    });

    it('keeps the pings of the last 60 s in recentPings, all of one write however many', async () => {
      const check = await buildCheck(project);
      await recordPings(deps, Array.from({ length: 12 }, () => item(check._id, 'success')));
      expect((await storedCheck(check._id)).recentPings.map((p) => p.n)).to.deep.equal(Array.from({ length: 12 }, (_, i) => i + 1));
      const later = { ...deps, clock: () => new Date(Date.now() + 61_000) };
      await recordPings(later, [item(check._id, 'success')]);
      expect((await storedCheck(check._id)).recentPings.map((p) => p.n)).to.deep.equal([13]);
    });

    it('keeps numbers consecutive when batched pings race single pings on the same check', async () => {
      const check = await buildCheck(project);
      const batcher = pingBatcher(deps);
      const batched = Array.from({ length: 10 }, () => batcher.load(item(check._id, 'success')));
      const alone = Array.from({ length: 5 }, () => recordPings(deps, [item(check._id, 'success')]).then(([n]) => n!));
      const ns = await Promise.all([...batched, ...alone]);
      expect([...ns].sort((a, b) => a! - b!)).to.deep.equal(Array.from({ length: 15 }, (_, i) => i + 1));
      expect((await storedCheck(check._id)).nPings).to.equal(15);
      expect((await storedPings(check._id)).map((p) => p.n)).to.deep.equal(Array.from({ length: 15 }, (_, i) => i + 1));
    });

    it('returns null for a ping whose check does not exist, and records the others', async () => {
      const check = await buildCheck(project);
      expect(await recordPings(deps, [item('no-such-check', 'success'), item(check._id, 'success')])).to.deep.equal([null, 1]);
    });

    it('schedules each moved deadline once, in one batch', async () => {
      const checks = await Promise.all([1, 2, 3].map(() => buildCheck(project, { timeout: 60, grace: 60 })));
      await recordPings(deps, checks.flatMap((check) => [item(check._id, 'success'), item(check._id, 'success')]));
      const jobs = await testContext().queues.deadlines.getJobs(['delayed', 'waiting']);
      expect(jobs.map((j) => j.data.checkId).sort()).to.deep.equal(checks.map((c) => c._id).sort());
      for (const check of checks) expect((await pendingTimer(check._id))?.delay).to.equal(120_000);
    });

    it('counts each ping once when batches over the same checks race (bulk writes re-read after a miss)', async () => {
      const checks = await Promise.all([1, 2, 3].map(() => buildCheck(project)));
      const batches = Array.from({ length: 12 }, () => checks.flatMap((c) => [item(c._id, 'success'), item(c._id, 'success')]));
      const results = await Promise.all(batches.map((batch) => recordPings(deps, batch)));
      for (const [k, check] of checks.entries()) {
        const ns = results.flatMap((r) => r.filter((_, i) => Math.floor(i / 2) === k));
        expect([...ns].sort((a, b) => a! - b!), `check ${k}: numbers returned`).to.deep.equal(Array.from({ length: 24 }, (_, i) => i + 1));
        expect((await storedPings(check._id)).map((p) => p.n)).to.deep.equal(Array.from({ length: 24 }, (_, i) => i + 1));
        expect((await storedCheck(check._id)).nPings).to.equal(24);
      }
    });

    it('gives a ping already in recentPings its number again, without counting it (a replay, a write re-read after it matched)', async () => {
      const check = await buildCheck(project);
      const ping = item(check._id, 'success');
      await recordPings(deps, [ping]);
      await Ping.deleteOne({ _id: ping.meta._id });
      expect(await recordPings(deps, [ping, item(check._id, 'fail')])).to.deep.equal([1, 2]);
      expect((await storedPings(check._id)).map((p) => [p.n, p.kind])).to.deep.equal([[1, 'success'], [2, 'fail']]);
      expect(await storedCheck(check._id)).to.include({ nPings: 2, status: 'down' });
    });
  });
});
