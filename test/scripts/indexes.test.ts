/**
 * The queries of the pages, the ping path, the deadline worker and the sweep answered from the index docs/architecture.md
 * ("Indexes") names, shown with `explain` on the run's server (the embedded one in CI: FerretDB 2 on DocumentDB; mongod where
 * mongodb-memory-server has one).
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import mongoose, { Types } from 'mongoose';
import { Check } from '../../shared/models/check.js';
import { Flip } from '../../shared/models/flip.js';
import { Ping } from '../../shared/models/ping.js';

/** Every index name in an explain answer: `indexName` in mongod's plans, `Index Name` in PostgreSQL's (DocumentDB). */
function indexesIn(plan: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(plan)) for (const item of plan) indexesIn(item, found);
  else if (plan && typeof plan === 'object') {
    for (const [key, value] of Object.entries(plan)) {
      if ((key === 'indexName' || key === 'Index Name') && typeof value === 'string') found.add(value);
      else indexesIn(value, found);
    }
  }
  return found;
}

describe('indexes: each query of the hot paths uses the index docs/architecture.md names', function () {
  this.timeout(120_000);
  const projects = [randomUUID(), randomUUID(), randomUUID()];
  const ids: string[] = [];
  const now = new Date();

  beforeEach(async () => {
    ids.length = 0;
    const checks = Array.from({ length: 3_000 }, (_, i) => {
      const _id = randomUUID();
      ids.push(_id);
      return {
        _id, projectId: projects[i % 3], badgeKey: randomUUID(), created: now, name: `check-${i}`, slug: `check-${i}`,
        status: i % 10 === 0 ? 'down' : 'up', lastPing: new Date(now.getTime() - i * 1000), deadline: new Date(now.getTime() + i * 60_000),
      };
    });
    await Check.insertMany(checks);
    await Ping.collection.insertMany(Array.from({ length: 3_000 }, (_, i) => ({
      _id: new Types.ObjectId(), checkId: ids[i % 30], n: Math.floor(i / 30) + 1, created: now, kind: 'success',
      scheme: 'http', remoteAddr: '127.0.0.1', method: 'GET', ua: '', body: null, exitStatus: null, rid: null,
    })));
    await Flip.collection.insertMany(Array.from({ length: 3_000 }, (_, i) => ({
      _id: new Types.ObjectId(), checkId: ids[i % 30], created: new Date(now.getTime() - i * 1000), oldStatus: 'up', newStatus: 'down',
    })));
  });

  const explained = async (cursor: { explain(): Promise<unknown> }) => [...indexesIn(await cursor.explain())];
  const checks = () => mongoose.connection.collection('checks');

  it('the checks list: a project by name, by status, and its count of down checks', async () => {
    expect(await explained(checks().find({ projectId: projects[0] }).sort({ name: 1 }).limit(100))).to.include('projectId_1_name_1');
    expect(await explained(checks().find({ projectId: projects[0], status: 'down' }).sort({ name: 1 }).limit(100))).to.include('projectId_1_status_1_name_1');
  });

  it('the ping path: a slug ping URL, and the badge of a check', async () => {
    expect(await explained(checks().find({ projectId: projects[1], slug: 'check-1' }).limit(2))).to.include('projectId_1_slug_1');
    expect(await explained(checks().find({ badgeKey: 'x' }))).to.include('badgeKey_1');
  });

  it('the deadline worker and the sweep: checks due, and owed flips', async () => {
    expect(await explained(checks().find({ deadline: { $lte: now }, status: { $ne: 'down' } }).sort({ deadline: 1 }).limit(500))).to.include('deadline_1');
    expect(await explained(checks().find({ 'outbox.recorded': { $lte: now } }))).to.include('outbox.recorded_1');
  });

  it('a check page: its newest pings and its flips', async () => {
    expect(await explained(mongoose.connection.collection('pings').find({ checkId: ids[0] }).sort({ n: -1 }).limit(50))).to.include('checkId_1_n_-1');
    expect(await explained(mongoose.connection.collection('flips').find({ checkId: ids[0] }).sort({ created: -1 }).limit(20))).to.include('checkId_1_created_-1');
  });
});
