import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { changeCheck, changeChecks, owedFlip, pullOwed, readChecks, readDue, type Compute } from '../../../shared/checks/store.js';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { storedCheck } from '../../helpers/pings.js';

const ids = (entries: readonly { _id: unknown }[]) => entries.map((e) => String(e._id));

describe('check store (shared/checks/store.ts)', () => {
  let project: TestProject;
  beforeEach(async () => {
    project = await buildProject();
  });

  /** A computation adding one to `nPings`, remembering every state it was given. */
  function countingCompute(seen: CheckDoc[]): Compute<number> {
    return (check) => {
      seen.push(check);
      return { change: { set: { nPings: check.nPings + 1 } }, result: check.nPings + 1 };
    };
  }

  it('writes a change, adding one to rev', async () => {
    const check = await buildCheck(project);
    const done = await changeCheck(check._id, () => ({ change: { set: { name: 'renamed' } }, result: 'ok' }));
    expect(done?.result).to.equal('ok');
    expect(done?.check).to.include({ name: 'renamed', rev: 1 });
    expect(await storedCheck(check._id)).to.include({ name: 'renamed', rev: 1 });
  });

  it('writes nothing when the computation gives no change (rev unchanged)', async () => {
    const check = await buildCheck(project);
    const done = await changeCheck(check._id, () => ({ change: null, result: 'nothing' }));
    expect([done?.result, done?.check.rev]).to.deep.equal(['nothing', 0]);
    expect((await storedCheck(check._id)).rev).to.equal(0);
  });

  it('returns null for a check that does not exist, and no entry from changeChecks', async () => {
    expect(await changeCheck(randomUUID(), () => ({ change: { set: { name: 'x' } }, result: 1 }))).to.equal(null);
    const check = await buildCheck(project);
    const [read] = await readChecks([check._id]);
    await Check.deleteOne({ _id: check._id });
    // The write matches nothing, the re-read finds nothing: the check is left out.
    expect((await changeChecks([read], () => ({ change: { set: { name: 'x' } }, result: 1 }))).size).to.equal(0);
  });

  it('recomputes a change that lost to another writer, on the state that writer left', async () => {
    const check = await buildCheck(project, { nPings: 5 });
    const [stale] = await readChecks([check._id]);
    // Another writer between our read and our write.
    await changeCheck(check._id, () => ({ change: { set: { nPings: 10, name: 'other writer' } }, result: null }));
    const seen: CheckDoc[] = [];
    const applied = await changeChecks([stale], countingCompute(seen));
    expect(seen.map((c) => [c.rev, c.nPings])).to.deep.equal([[0, 5], [1, 10]]);
    expect(applied.get(check._id)?.result).to.equal(11);
    expect(applied.get(check._id)?.check).to.include({ nPings: 11, rev: 2, name: 'other writer' });
    expect(await storedCheck(check._id)).to.include({ nPings: 11, rev: 2, name: 'other writer' });
  });

  it('re-reads a bulk with a miss whole and computes it again: the check whose write matched recognises its change, the other is written on the new state', async () => {
    const [a, b] = await Promise.all([buildCheck(project), buildCheck(project)]);
    const read = await readChecks([a._id, b._id]);
    await changeCheck(b._id, () => ({ change: { set: { nPings: 7 } }, result: null }));
    const seen: string[] = [];
    // Counts once: a check already marked is left as it is (the store's rule for computations).
    const countOnce: Compute<number> = (check) => {
      seen.push(`${check._id === a._id ? 'a' : 'b'}${check.rev}`);
      if (check.tags === 'counted') return { change: null, result: check.nPings };
      return { change: { set: { tags: 'counted', nPings: check.nPings + 1 } }, result: check.nPings + 1 };
    };
    const applied = await changeChecks(read, countOnce);
    expect(seen.sort()).to.deep.equal(['a0', 'a1', 'b0', 'b1']);
    expect([applied.get(a._id)?.result, applied.get(b._id)?.result]).to.deep.equal([1, 8]);
    expect([(await storedCheck(a._id)).rev, (await storedCheck(b._id)).rev]).to.deep.equal([1, 2]);
  });

  it('applies every one of many concurrent changes once', async () => {
    const check = await buildCheck(project);
    const results = await Promise.all(Array.from({ length: 20 }, () => changeCheck(check._id, countingCompute([]))));
    // Each write matched once at its own rev: no two computations returned the same count.
    expect(results.map((r) => r!.result).sort((a, b) => a - b), 'counts computed by the writes that matched (a count given twice means two writes guarded by the same rev both matched)').to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await storedCheck(check._id)).to.include({ nPings: 20, rev: 20 });
  });

  it('pushes the flips a change owes into the outbox, in the same write', async () => {
    const check = await buildCheck(project, { status: 'up' });
    const now = new Date();
    const entry = owedFlip({ oldStatus: 'up', newStatus: 'down', reason: 'fail' }, new Date(now.getTime() - 1000), now);
    const done = await changeCheck(check._id, () => ({ change: { set: { status: 'down' }, owe: [entry] }, result: null }));
    expect(ids(done!.check.outbox)).to.deep.equal([String(entry._id)]);
    const stored = await storedCheck(check._id);
    expect(stored).to.include({ status: 'down', rev: 1 });
    expect(stored.outbox).to.have.length(1);
    expect(stored.outbox[0]).to.deep.include({ oldStatus: 'up', newStatus: 'down', reason: 'fail', at: entry.at, recorded: now });
    expect(String(stored.outbox[0]._id)).to.equal(String(entry._id));
  });

  it('keeps the entries already owed when another change pushes more', async () => {
    const check = await buildCheck(project, { status: 'up' });
    const now = new Date();
    const first = owedFlip({ oldStatus: 'up', newStatus: 'down', reason: 'fail' }, now, now);
    const second = owedFlip({ oldStatus: 'down', newStatus: 'up', reason: '' }, now, now);
    await changeCheck(check._id, () => ({ change: { set: { status: 'down' }, owe: [first] }, result: null }));
    const done = await changeCheck(check._id, () => ({ change: { set: { status: 'up' }, owe: [second] }, result: null }));
    expect(ids(done!.check.outbox)).to.deep.equal([String(first._id), String(second._id)]);
    expect(ids((await storedCheck(check._id)).outbox)).to.deep.equal([String(first._id), String(second._id)]);
  });

  it('pullOwed removes only the given entries, of the given check, and leaves rev alone', async () => {
    const [a, b] = await Promise.all([buildCheck(project), buildCheck(project)]);
    const now = new Date();
    const owe = (n: number) => Array.from({ length: n }, () => owedFlip({ oldStatus: 'up', newStatus: 'down', reason: '' }, now, now));
    const [onA, onB] = [owe(3), owe(1)];
    await changeCheck(a._id, () => ({ change: { set: {}, owe: onA }, result: null }));
    await changeCheck(b._id, () => ({ change: { set: {}, owe: onB }, result: null }));
    const storedA = await storedCheck(a._id);
    // Pulled as read back (as the sweep does) and as written (as the writer does).
    await pullOwed([{ checkId: a._id, entry: storedA.outbox[0] }, { checkId: a._id, entry: onA[2] }, { checkId: b._id, entry: onA[1] }]);
    expect(ids((await storedCheck(a._id)).outbox)).to.deep.equal([String(onA[1]._id)]);
    expect(ids((await storedCheck(b._id)).outbox)).to.deep.equal([String(onB[0]._id)]);
    expect([(await storedCheck(a._id)).rev, (await storedCheck(b._id)).rev]).to.deep.equal([1, 1]);
    await pullOwed([]);
  });

  it('updates a check stored before rev existed (no rev field), which then has rev 1', async () => {
    const doc = new Check({ _id: randomUUID(), projectId: project.project._id, badgeKey: randomUUID(), created: new Date() }).toObject() as Partial<CheckDoc>;
    delete doc.rev;
    await Check.collection.insertOne(doc as never);
    expect(await Check.collection.findOne({ _id: doc._id as never })).to.not.have.property('rev');
    const [read] = await readChecks([doc._id!]);
    expect(read.rev).to.equal(undefined);
    const done = await changeCheck(read, () => ({ change: { set: { name: 'migrated' } }, result: null }));
    expect(done?.check.rev).to.equal(1);
    expect(await storedCheck(doc._id!)).to.include({ name: 'migrated', rev: 1 });
  });

  it('recomputes a change to a check without rev that another writer gave rev 1 meanwhile', async () => {
    const doc = new Check({ _id: randomUUID(), projectId: project.project._id, badgeKey: randomUUID(), created: new Date() }).toObject() as Partial<CheckDoc>;
    delete doc.rev;
    await Check.collection.insertOne(doc as never);
    const [stale] = await readChecks([doc._id!]);
    await changeCheck(doc._id!, countingCompute([]));
    const seen: CheckDoc[] = [];
    await changeChecks([stale], countingCompute(seen));
    expect(seen.map((c) => [c.rev, c.nPings])).to.deep.equal([[undefined, 0], [1, 1]]);
    expect(await storedCheck(doc._id!)).to.include({ nPings: 2, rev: 2 });
  });

  it('readChecks leaves out desc and reads each check once', async () => {
    const check = await buildCheck(project, { desc: 'long text' });
    const read = await readChecks([check._id, check._id]);
    expect(read).to.have.length(1);
    expect(read[0]).to.not.have.property('desc');
    expect(await readChecks([])).to.deep.equal([]);
  });

  it('readDue reads the checks not down whose deadline has come, earliest first, up to the limit, without desc', async () => {
    const at = (s: number) => new Date(Date.now() + s * 1000);
    const [late, later, latest] = await Promise.all([-30, -20, -10].map((s) => buildCheck(project, { status: 'up', deadline: at(s), desc: 'text' })));
    await buildCheck(project, { status: 'down', deadline: at(-40) });
    await buildCheck(project, { status: 'up', deadline: at(60) });
    await buildCheck(project, { status: 'up', deadline: null });
    const due = await readDue(new Date(), 10);
    expect(due.map((c) => c._id)).to.deep.equal([late._id, later._id, latest._id]);
    expect(due[0]).to.not.have.property('desc');
    expect((await readDue(new Date(), 2)).map((c) => c._id)).to.deep.equal([late._id, later._id]);
  });
});
