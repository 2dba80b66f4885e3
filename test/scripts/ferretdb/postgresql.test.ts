import { expect } from 'chai';
import mongoose from 'mongoose';
import { waitFor } from '../../helpers/poll.js';
import { ferretOnPostgresPerTest } from './on-postgres.js';

describe('embedded FerretDB on PostgreSQL: pushed-down filters and indexes they can use (scripts/ferretdb/pgindex.go, patches/)', function () {
  this.timeout(60_000);
  const pg = ferretOnPostgresPerTest('hc-ferretdb-pg-');
  /** The table FerretDB keeps collection `name` of database hc_pg in. */
  const tableOf = (name: string): Promise<string> => pg.tableOf('hc_pg', name);

  /** Index scans of `table`'s indexes since the last `pg_stat_reset()`, by index name. */
  async function indexScans(table: string): Promise<Map<string, number>> {
    const rows = await pg.postgres().psql(`SELECT indexrelname, idx_scan FROM pg_stat_user_indexes WHERE schemaname = 'hc_pg' AND relname = '${table}'`);
    return new Map(rows.trim().split('\n').filter(Boolean).map((row) => row.split('|') as [string, string]).map(([name, n]) => [name, Number(n)]));
  }

  it('a find by two indexed fields and a find by _id run as index scans, through FerretDB itself', async () => {
    const checks = pg.connection().getClient().db('hc_pg').collection('checks');
    await checks.createIndex({ projectId: 1, slug: 1 });
    const projectId = new mongoose.Types.ObjectId();
    const docs = Array.from({ length: 2_000 }, (_, i) => ({ _id: new mongoose.Types.ObjectId(), projectId: i % 2 ? projectId : new mongoose.Types.ObjectId(), slug: `c${i}` }));
    await checks.insertMany(docs);
    const table = await tableOf('checks');
    await waitFor('the jsonb_path_ops indexes', async () => Number(await pg.postgres().psql(`SELECT count(*) FROM pg_indexes WHERE schemaname = 'hc_pg' AND indexname LIKE '%hcgin%' AND indexdef LIKE '%jsonb_path_ops%'`)) === 2, 20_000);
    await pg.analyze(table, 2);

    const plan = await pg.postgres().psql(`PREPARE q(text, jsonb, text, jsonb) AS SELECT _jsonb FROM hc_pg."${table}" WHERE _jsonb->$1 @> $2 AND _jsonb->$3 @> $4;
      EXPLAIN (COSTS OFF) EXECUTE q('projectId', '"${projectId.toHexString()}"', 'slug', '"c7"')`);
    expect(plan).to.match(/Bitmap Index Scan on \S+_hcgin_/);

    await pg.postgres().psql('SELECT pg_stat_reset()');
    for (let i = 0; i < 10; i++) {
      expect(await checks.find({ projectId, slug: 'c7' }).toArray()).to.have.length(1);
      expect(await checks.findOne({ _id: docs[i]._id })).to.have.property('slug', `c${i}`);
    }
    const scans = await waitFor('index scans in the statistics', async () => {
      const used = [...(await indexScans(table))].filter(([, n]) => n >= 10).map(([name]) => name);
      return used.some((name) => name.includes('_hcgin_')) && used.some((name) => name.includes('_id_')) && used;
    }, 20_000);
    expect(scans).to.have.length.of.at.least(2);
  });

  it('an _id filter with more fields reads through the unique _id index, not a BitmapAnd with another index, and finds exactly what MongoDB finds (patches/002-postgresql-pushdown.diff)', async () => {
    type Doc = { _id: string | number | mongoose.Types.ObjectId | mongoose.mongo.Double | mongoose.mongo.Long; deadline: Date; n: number };
    const checks = pg.connection().getClient().db('hc_pg').collection<Doc>('guarded');
    await checks.createIndex({ deadline: 1 });
    const deadline = new Date(Date.UTC(2026, 0, 1));
    const oid = new mongoose.Types.ObjectId();
    // A thousand documents sharing one deadline, as a thousand checks due in the same instant; no ANALYZE, as for a new table.
    await checks.insertMany([...Array.from({ length: 1_000 }, (_, i) => ({ _id: `c${i}`, deadline, n: 0 })), { _id: 7, deadline, n: 0 }, { _id: 7.5, deadline, n: 0 }, { _id: oid, deadline, n: 0 }]);
    const table = await tableOf('guarded');
    const deadlineIndex = await waitFor('the deadline index', async () => (await pg.postgres().psql(`SELECT indexname FROM pg_indexes WHERE schemaname = 'hc_pg' AND tablename = '${table}' AND indexname LIKE '%hcgin%' AND indexdef LIKE '%deadline%'`)).trim() || null, 20_000);
    await pg.postgres().psql('SELECT pg_stat_reset()');

    for (let i = 0; i < 20; i++) {
      expect((await checks.updateOne({ _id: `c${i}`, deadline }, { $inc: { n: 1 } })).modifiedCount).to.equal(1);
    }
    expect((await checks.updateOne({ _id: 'c1', deadline: new Date(0) }, { $inc: { n: 1 } })).matchedCount).to.equal(0);
    expect(await checks.findOne({ _id: { $eq: 'c3' }, deadline })).to.have.property('n', 1);
    expect(await checks.findOne({ _id: 7 })).to.have.property('_id', 7);
    expect(await checks.findOne({ _id: oid, deadline })).to.have.property('n', 0);
    // A value that is not pushed down (a double) leaves the _id to FerretDB: still exact.
    expect(await checks.findOne({ _id: 7.5 })).to.have.property('_id', 7.5);
    expect(await checks.findOne({ _id: 'missing', deadline })).to.equal(null);

    const scans = await waitFor('_id index scans in the statistics', async () => {
      const byIndex = await indexScans(table);
      const id = [...byIndex].filter(([name]) => name.includes('_id_')).reduce((sum, [, n]) => sum + n, 0);
      // 21 conditional updates each read through it and the 20 that matched wrote through it; 4 finds were pushed down.
      return id >= 45 && byIndex;
    }, 20_000);
    expect(scans.get(deadlineIndex)).to.equal(0);

    // A stored double or int64 equals an int32 of the same value, as in MongoDB (jsonb compares numbers by value).
    await checks.insertMany([{ _id: new mongoose.mongo.Double(8), deadline, n: 8 }, { _id: mongoose.mongo.Long.fromNumber(9), deadline, n: 9 }]);
    expect(await checks.findOne({ _id: 8 })).to.have.property('n', 8);
    expect(await checks.findOne({ _id: 9, deadline })).to.have.property('n', 9);
    expect((await checks.find({ _id: { $in: [8, 9] } }).toArray()).map((d) => d.n).sort()).to.deep.equal([8, 9]);
  });

  it('a find by a list of _ids (`$in`) reads through the _id index and finds exactly the listed documents (patches/002-postgresql-pushdown.diff)', async () => {
    const checks = pg.connection().getClient().db('hc_pg').collection<{ _id: string | number; n: number }>('in');
    await checks.insertMany(Array.from({ length: 3_000 }, (_, i) => ({ _id: `id-${i}`, n: i })));
    await checks.insertMany([{ _id: 7, n: -7 }, { _id: 7.5, n: -75 }]);
    await pg.analyze(await tableOf('in'), 0);
    await pg.postgres().psql('SELECT pg_stat_reset()');

    const listed = ['id-3', 'id-2999', 'missing', 'id-3', 'id-10'];
    expect((await checks.find({ _id: { $in: listed } }).toArray()).map((d) => d.n).sort((a, b) => a - b)).to.deep.equal([3, 10, 2999]);
    expect((await checks.find({ _id: { $in: ['id-1', 7] } }).toArray()).map((d) => d.n).sort((a, b) => a - b)).to.deep.equal([-7, 1]);
    // A value that is not pushed down (a double) leaves the whole filter to FerretDB: still exact.
    expect((await checks.find({ _id: { $in: [7.5, 'id-2'] } }).toArray()).map((d) => d.n).sort((a, b) => a - b)).to.deep.equal([-75, 2]);
    expect(await checks.countDocuments({ _id: { $in: Array.from({ length: 500 }, (_, i) => `id-${i * 5}`) }, n: { $gte: 100 } })).to.equal(480);

    const scans = await waitFor('_id index scans in the statistics', async () => {
      const used = Number(await pg.postgres().psql(`SELECT coalesce(sum(idx_scan), 0) FROM pg_stat_user_indexes WHERE schemaname = 'hc_pg' AND relname = '${await tableOf('in')}' AND indexrelname LIKE '%\\_id\\_%'`));
      return used >= 3 && used;
    }, 20_000);
    expect(scans).to.be.at.least(3);
  });

  it('pushes date ranges down, on dotted keys through arrays too, and still finds exactly what MongoDB finds (patches/)', async () => {
    type Doc = { _id: string; deadline?: unknown; outbox?: unknown };
    const docs = pg.connection().getClient().db('hc_pg').collection<Doc>('ranges');
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
    const entry = (minutes: number) => ({ recorded: at(minutes) });
    await docs.insertMany([
      { _id: 'past', deadline: at(1), outbox: [entry(50), entry(1)] },
      { _id: 'edge', deadline: at(10), outbox: [entry(10)] },
      { _id: 'future', deadline: at(20), outbox: [entry(20)] },
      { _id: 'array', deadline: [at(30), at(2)], outbox: [{ recorded: [at(40), at(3)] }] },
      { _id: 'single', deadline: null, outbox: entry(5) },
      { _id: 'empty', outbox: [] },
      { _id: 'missing' },
      { _id: 'number', deadline: at(1).getTime(), outbox: [{ recorded: at(1).getTime() }] },
      { _id: 'string', deadline: at(1).toISOString(), outbox: [{ recorded: at(1).toISOString() }] },
    ]);
    const ids = async (filter: object) => (await docs.find(filter).toArray()).map((d) => d._id).sort();
    // An upper bound is compared with the least number on the path, a lower bound is a jsonpath filter.
    const pushedDown = async (filter: object, marker: string) => {
      const plan = (await pg.connection().getClient().db('hc_pg').command({ explain: { find: 'ranges', filter } })) as { filterPushdown?: boolean; queryPlanner?: unknown };
      return plan.filterPushdown === true && JSON.stringify(plan.queryPlanner).includes(marker);
    };

    expect(await ids({ deadline: { $lte: at(10) } })).to.deep.equal(['array', 'edge', 'past']);
    expect(await ids({ deadline: { $lt: at(10) } })).to.deep.equal(['array', 'past']);
    expect(await ids({ deadline: { $gt: at(10), $lte: at(20) } })).to.deep.equal(['array', 'future']);
    expect(await ids({ deadline: { $gte: at(30) } })).to.deep.equal(['array']);
    expect(await ids({ 'outbox.recorded': { $lte: at(10) } })).to.deep.equal(['array', 'edge', 'past', 'single']);
    expect(await ids({ 'outbox.recorded': { $gt: at(2), $lt: at(5) } })).to.deep.equal(['array']);
    expect(await ids({ 'outbox.recorded': { $lte: at(10) }, deadline: { $ne: null } })).to.deep.equal(['array', 'edge', 'past']);
    expect(await pushedDown({ deadline: { $lte: at(10) } }, 'hc_min_number')).to.equal(true);
    expect(await pushedDown({ 'outbox.recorded': { $lte: at(10) } }, 'hc_min_number')).to.equal(true);
    expect(await pushedDown({ deadline: { $gte: at(10) } }, '@?')).to.equal(true);
  });

  it('an upper bound on a date with a single-field index reads through the btree index of its least number, dotted keys through arrays too (scripts/ferretdb/pgindex.go)', async () => {
    type Doc = { _id: number; deadline: Date | null; outbox: { recorded: Date }[] };
    const checks = pg.connection().getClient().db('hc_pg').collection<Doc>('due');
    await checks.createIndex({ deadline: 1 });
    await checks.createIndex({ 'outbox.recorded': 1 });
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
    // 3,000 checks due in a day, none owing; three due or owing now, one of them only through its second entry.
    const docs: Doc[] = Array.from({ length: 3_000 }, (_, i) => ({ _id: i, deadline: at(1_440 + i), outbox: [] }));
    docs[7] = { _id: 7, deadline: at(1), outbox: [] };
    docs[8] = { _id: 8, deadline: null, outbox: [{ recorded: at(3_000) }, { recorded: at(2) }] };
    docs[9] = { _id: 9, deadline: at(5), outbox: [{ recorded: at(5) }] };
    await checks.insertMany(docs);
    const table = await tableOf('due');
    await waitFor('the least-number indexes', async () => Number(await pg.postgres().psql(`SELECT count(*) FROM pg_indexes WHERE schemaname = 'hc_pg' AND tablename = '${table}' AND indexname LIKE '%hcmin%'`)) === 2, 20_000);
    // Those two, and the two jsonb_path_ops indexes of the same fields.
    await pg.analyze(table, 4);
    await pg.postgres().psql('SELECT pg_stat_reset()');

    for (let i = 0; i < 10; i++) {
      expect((await checks.find({ deadline: { $lte: at(10) } }).toArray()).map((d) => d._id).sort()).to.deep.equal([7, 9]);
      expect((await checks.find({ 'outbox.recorded': { $lte: at(10) } }).toArray()).map((d) => d._id).sort()).to.deep.equal([8, 9]);
    }
    const scans = await waitFor('least-number index scans in the statistics', async () => {
      const used = [...(await indexScans(table))].filter(([name, n]) => name.includes('_hcmin_') && n >= 10);
      return used.length === 2 && used;
    }, 20_000);
    expect(scans).to.have.length(2);
  });

  it('answers more concurrent updates and findAndModify than its connection pool holds (patches/001-update-atomic.diff)', async () => {
    const docs = pg.connection().getClient().db('hc_pg').collection<{ _id: number; n: number }>('busy');
    await docs.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i, n: 0 })));
    // Each statement used to hold its query's connection while its write waited for another: 300 at once deadlocked.
    const updates = Array.from({ length: 300 }, (_, i) => docs.updateOne({ _id: i }, { $inc: { n: 1 } }));
    const finds = Array.from({ length: 300 }, (_, i) => docs.findOneAndUpdate({ _id: i }, { $inc: { n: 1 } }, { returnDocument: 'after' }));
    const results = await Promise.all([...updates, ...finds]);
    expect(results.slice(0, 300).every((r) => (r as { modifiedCount: number }).modifiedCount === 1)).to.equal(true);
    expect(await docs.countDocuments({ n: 2 })).to.equal(300);
  });

  it('indexes a field as soon as a MongoDB index names it, and drops its index with that MongoDB index', async () => {
    const flips = pg.connection().getClient().db('hc_pg').collection('flips');
    await flips.insertOne({ checkId: new mongoose.Types.ObjectId() });
    const count = async () => Number(await pg.postgres().psql(`SELECT count(*) FROM pg_indexes WHERE schemaname = 'hc_pg' AND indexname LIKE '%hcgin%'`));
    await flips.createIndex({ checkId: 1, created: -1 }, { name: 'by_check' });
    await waitFor('indexes for checkId and created', async () => (await count()) === 2, 20_000);
    await flips.dropIndex('by_check');
    await waitFor('no index of its own again (an _id filter uses the _id index)', async () => (await count()) === 0, 20_000);
  });
});
