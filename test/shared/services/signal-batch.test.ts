import { expect } from 'chai';
import { deadlineIndexKey, pendingDeadline, redisOf } from '../../../shared/queues/deadlines.js';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { Check } from '../../../shared/models/check.js';
import { recordSignal, type PingMeta, type SignalDeps } from '../../../shared/services/signal.js';
import { recordSignals, signalBatcher } from '../../../shared/services/signal-batch.js';
import { storedCheck, storedFlips, storedPings, testClock } from '../../helpers/pings.js';

const meta: PingMeta = { scheme: 'http', remoteAddr: '10.0.0.1', method: 'GET', ua: '', body: null, exitStatus: null, rid: null };

describe('recordSignals (pings recorded in batches)', () => {
  let project: TestProject;
  let deps: SignalDeps;
  beforeEach(async () => {
    project = await buildProject();
    deps = { clock: testClock().clock, queues: testContext().queues };
  });

  it('records pings to many checks in one batch, one ping each', async () => {
    const checks = await Promise.all([1, 2, 3, 4, 5].map(() => buildCheck(project)));
    const ns = await recordSignals(deps, checks.map((check) => ({ check, resolve: () => 'success' as const, meta })));
    expect(ns).to.deep.equal([1, 1, 1, 1, 1]);
    for (const check of checks) expect(await storedCheck(check._id)).to.include({ nPings: 1, status: 'up' });
  });

  it('applies several pings to one check in arrival order with consecutive numbers', async () => {
    const check = await buildCheck(project);
    const kinds = ['start', 'success', 'fail', 'success'] as const;
    const ns = await recordSignals(deps, kinds.map((kind) => ({ check, resolve: () => kind, meta })));
    expect(ns).to.deep.equal([1, 2, 3, 4]);
    expect((await storedPings(check._id)).map((p) => [p.n, p.kind])).to.deep.equal([[1, 'start'], [2, 'success'], [3, 'fail'], [4, 'success']]);
    const flips = await storedFlips(check._id);
    expect(flips.map((f) => [f.oldStatus, f.newStatus])).to.have.deep.members([['new', 'up'], ['up', 'down'], ['down', 'up']]);
    expect(await storedCheck(check._id)).to.include({ nPings: 4, status: 'up' });
    // A ping leaves its completed entries for the sweep to pull (it writes its check once).
    expect((await storedCheck(check._id)).outbox).to.have.length(3);
  });

  it('keeps numbers consecutive when one-at-a-time pings race the batch on the same check', async () => {
    const check = await buildCheck(project);
    const batcher = signalBatcher(deps);
    const batched = Array.from({ length: 10 }, () => batcher.load({ check, resolve: () => 'success', meta }));
    const alone = Array.from({ length: 5 }, () => recordSignal(deps, check, () => 'success', meta));
    const ns = await Promise.all([...batched, ...alone]);
    expect([...ns].sort((a, b) => a! - b!)).to.deep.equal(Array.from({ length: 15 }, (_, i) => i + 1));
    expect((await storedCheck(check._id)).nPings).to.equal(15);
  });

  it('recomputes a ping whose check changed after it was read (paused with manual_resume)', async () => {
    const read = await buildCheck(project, { status: 'up', lastPing: new Date() });
    await Check.updateOne({ _id: read._id }, { $set: { status: 'paused', manualResume: true } });
    expect(await recordSignals(deps, [{ check: read, resolve: () => 'fail', meta }])).to.deep.equal([1]);
    expect((await storedPings(read._id)).map((p) => p.kind)).to.deep.equal(['ign']);
    expect((await storedCheck(read._id)).status).to.equal('paused');
  });

  it('returns null for a ping whose check was deleted after it was read', async () => {
    const read = await buildCheck(project);
    await Check.deleteOne({ _id: read._id });
    expect(await recordSignals(deps, [{ check: read, resolve: () => 'success', meta }])).to.deep.equal([null]);
  });

  it('schedules each moved deadline once, in one batch', async () => {
    const checks = await Promise.all([1, 2, 3].map(() => buildCheck(project, { timeout: 60, grace: 60 })));
    await recordSignals(deps, checks.map((check) => ({ check, resolve: () => 'success' as const, meta })));
    const { deadlines } = testContext().queues;
    const indexed = await redisOf(deadlines).zrange(deadlineIndexKey(deadlines), '0', '-1');
    expect(indexed.sort()).to.deep.equal(checks.map((c) => c._id).sort());
    for (const check of checks) expect(await pendingDeadline(deadlines, check._id)).to.deep.equal((await Check.findById(check._id).lean())!.deadline);
  });
});
