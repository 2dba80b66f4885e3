import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../../helpers/poll.js';
import { connectQuickly, startFerret } from './server.js';
import { ferretOnPostgresPerTest } from './on-postgres.js';

/** FNV-1a, 32 bits, as hex: how pgindex.go named its indexes before they were partial. */
function fnv32a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

describe('embedded FerretDB on PostgreSQL: sparse indexes (scripts/ferretdb/patches/006-sparse-indexes.diff, pgindex.go)', function () {
  this.timeout(60_000);
  const pg = ferretOnPostgresPerTest('hc-ferretdb-sparse-');
  /** The table FerretDB keeps collection `name` of database hc_sparse in. */
  const tableOf = (name: string): Promise<string> => pg.tableOf('hc_sparse', name);

  /** `table`'s index definitions (pg_indexes.indexdef) by index name. */
  async function indexDefs(table: string): Promise<Map<string, string>> {
    const rows = await pg.postgres().psql(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'hc_sparse' AND tablename = '${table}'`);
    return new Map(rows.trim().split('\n').filter(Boolean).map((row) => row.split('|') as [string, string]));
  }

  it('listIndexes shows sparse: true as MongoDB does, and PostgreSQL holds a partial index skipping documents without the field (any field of a compound key)', async () => {
    const checks = pg.connection().getClient().db('hc_sparse').collection('checks');
    await checks.createIndex({ remindAt: 1 }, { sparse: true });
    await checks.createIndex({ a: 1, b: -1 }, { sparse: true, name: 'a_b' });
    await checks.createIndex({ n: 1 });
    await checks.createIndex({ off: 1 }, { sparse: false });

    const listed = (await checks.listIndexes().toArray()).map(({ name, key, sparse }) => ({ name, key, sparse }));
    expect(listed).to.deep.equal([
      { name: '_id_', key: { _id: 1 }, sparse: undefined },
      { name: 'a_b', key: { a: 1, b: -1 }, sparse: true },
      { name: 'n_1', key: { n: 1 }, sparse: undefined },
      { name: 'off_1', key: { off: 1 }, sparse: undefined },
      { name: 'remindAt_1', key: { remindAt: 1 }, sparse: true },
    ]);

    const defs = [...(await indexDefs(await tableOf('checks'))).values()];
    const of = (field: string) => defs.filter((def) => def.includes(`'${field}'`) && !/_hc(gin|min)_/.test(def));
    expect(of('remindAt')).to.have.length(1);
    expect(of('remindAt')[0]).to.match(/ WHERE \(_jsonb \? 'remindAt'::text\)$/);
    expect(of('a')[0]).to.match(/ WHERE \(\(_jsonb \? 'a'::text\) OR \(_jsonb \? 'b'::text\)\)$/);
    expect(of('n')[0]).not.to.include('WHERE');
    expect(of('off')[0]).not.to.include('WHERE');
  });

  it('a sparse index holds only the documents with the field, and finds on it read through the partial indexes and return every match', async () => {
    type Doc = { _id: number; remindAt?: Date | null; n: number };
    const checks = pg.connection().getClient().db('hc_sparse').collection<Doc>('timers');
    await checks.createIndex({ remindAt: 1 }, { sparse: true });
    await checks.createIndex({ n: 1 });
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
    // 3,000 checks without a reminder; three with one, one with a null reminder.
    const docs: Doc[] = Array.from({ length: 3_000 }, (_, i) => ({ _id: i, n: i }));
    docs[7] = { _id: 7, n: 7, remindAt: at(1) };
    docs[8] = { _id: 8, n: 8, remindAt: at(5) };
    docs[9] = { _id: 9, n: 9, remindAt: at(60) };
    docs[10] = { _id: 10, n: 10, remindAt: null };
    await checks.insertMany(docs);
    const table = await tableOf('timers');
    await waitFor('the partial jsonb_path_ops and least-number indexes', async () => Number(await pg.postgres().psql(`SELECT count(*) FROM pg_indexes x
      JOIN pg_class c ON c.relname = x.indexname JOIN pg_index i ON i.indexrelid = c.oid
      WHERE x.schemaname = 'hc_sparse' AND x.tablename = '${table}' AND i.indisvalid AND x.indexdef ~ '_hcgin_.*WHERE \\(\\(_jsonb -> ''remindAt''::text\\) IS NOT NULL\\)$|_hcmin_.*WHERE \\(_jsonb \\? ''remindAt''::text\\)$'`)) === 2, 20_000);
    // Those two, and the two of `n`.
    await pg.analyze(table, 4);

    // FerretDB's own btree of the sparse index is about its four documents; the one of `n`, about all 3,000.
    const sizes = new Map((await pg.postgres().psql(`SELECT indexrelname, pg_relation_size(indexrelid) FROM pg_stat_user_indexes WHERE schemaname = 'hc_sparse' AND relname = '${table}'`))
      .trim().split('\n').map((row) => row.split('|') as [string, string]).map(([name, size]) => [name, Number(size)]));
    const sizeOf = (part: string) => {
      const found = [...sizes].find(([name]) => name.includes(part) && !name.includes('_hc'));
      if (!found) expect.fail(`no index named *${part}* in ${[...sizes.keys()].join(', ')}`);
      return found[1];
    };
    expect(sizeOf('_remindat_')).to.be.lessThan(sizeOf('_n__'));

    await pg.postgres().psql('SELECT pg_stat_reset()');
    for (let i = 0; i < 10; i++) {
      expect((await checks.find({ remindAt: { $lte: at(10) } }).toArray()).map((d) => d._id).sort()).to.deep.equal([7, 8]);
      expect((await checks.find({ remindAt: at(60) }).toArray()).map((d) => d._id)).to.deep.equal([9]);
    }
    expect((await checks.find({ remindAt: null }).toArray()).length).to.equal(2_997); // missing or null, as in MongoDB
    expect((await checks.find({ remindAt: { $exists: true } }).toArray()).map((d) => d._id).sort()).to.deep.equal([10, 7, 8, 9]);
    const used = await waitFor('index scans of both partial indexes in the statistics', async () => {
      const rows = await pg.postgres().psql(`SELECT indexrelname FROM pg_stat_user_indexes WHERE schemaname = 'hc_sparse' AND relname = '${table}' AND idx_scan >= 10`);
      const names = rows.trim().split('\n');
      return names.some((name) => name.includes('_hcgin_')) && names.some((name) => name.includes('_hcmin_')) && names;
    }, 20_000);
    expect(used.length).to.be.at.least(2);
  });

  it('a unique sparse index allows any number of documents without the field, but not two equal values (null included), as MongoDB', async () => {
    const keys = pg.connection().getClient().db('hc_sparse').collection<{ _id: number; key?: string | null }>('keys');
    await keys.createIndex({ key: 1 }, { unique: true, sparse: true });
    await keys.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3, key: 'a' }, { _id: 4, key: null }]);
    const duplicate = async (doc: { _id: number; key?: string | null }) => keys.insertOne(doc).then(() => 0, (err: { code?: number }) => err.code);
    expect(await duplicate({ _id: 5, key: 'a' })).to.equal(11000);
    expect(await duplicate({ _id: 6, key: null })).to.equal(11000);
    expect(await duplicate({ _id: 7 })).to.equal(0);
    expect(await keys.countDocuments()).to.equal(5);
  });

  it('refuses a sparse dotted key, a sparse _id index and a sparse value that is not a boolean, creating nothing', async () => {
    const db = pg.connection().getClient().db('hc_sparse');
    await db.collection<{ _id: number }>('refused').insertOne({ _id: 1 });
    const code = async (index: Record<string, unknown>) => db.command({ createIndexes: 'refused', indexes: [index] }).then(() => 0, (err: { code?: number }) => err.code);
    expect(await code({ key: { 'outbox.recorded': 1 }, name: 'o', sparse: true })).to.equal(238); // NotImplemented
    expect(await code({ key: { _id: 1 }, name: 'i', sparse: true })).to.equal(197); // InvalidIndexSpecificationOption
    expect(await code({ key: { a: 1 }, name: 'a', sparse: 'yes' })).to.equal(14); // TypeMismatch
    expect((await db.collection('refused').listIndexes().toArray()).map((index) => index.name)).to.deep.equal(['_id_']);
  });

  it('replaces a jsonb_path_ops index of the previous, non-partial form with the partial one (scripts/ferretdb/pgindex.go)', async () => {
    const flips = pg.connection().getClient().db('hc_sparse').collection('flips');
    await flips.insertOne({ checkId: 1 });
    const table = await tableOf('flips');
    const old = `${table}_hcgin_${fnv32a(`${table}\u0000checkId`)}`;
    await pg.postgres().psql(`CREATE INDEX "${old}" ON hc_sparse."${table}" USING gin ((_jsonb->'checkId') jsonb_path_ops)`);
    await flips.createIndex({ checkId: 1 });
    const defs = await waitFor('the old index dropped and a partial one added', async () => {
      const byName = await indexDefs(table);
      const gin = [...byName].filter(([name]) => name.includes('_hcgin_'));
      return !byName.has(old) && gin.length === 1 && gin;
    }, 20_000);
    expect(defs[0][1], defs[0][1]).to.match(/USING gin \(\(\(_jsonb -> 'checkId'::text\)\) jsonb_path_ops\) WHERE \(\(_jsonb -> 'checkId'::text\) IS NOT NULL\)$/);
  });
});

describe('embedded FerretDB on SQLite: sparse indexes are listed as created (scripts/ferretdb/patches/006-sparse-indexes.diff)', function () {
  this.timeout(60_000);

  it('listIndexes shows sparse: true on a sparse index only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hc-ferretdb-sparse-'));
    const server = await startFerret(dir);
    const connection = await connectQuickly(server.uri);
    try {
      const checks = connection.getClient().db('hc_sparse').collection('checks');
      await checks.createIndex({ heldUntil: 1 }, { sparse: true });
      await checks.createIndex({ n: 1 });
      await checks.insertMany([{ _id: 1 }, { _id: 2, heldUntil: new Date(0) }] as never[]);
      expect((await checks.listIndexes().toArray()).map(({ name, sparse }) => [name, sparse ?? false])).to.deep.equal([['_id_', false], ['heldUntil_1', true], ['n_1', false]]);
      expect(await checks.countDocuments({ heldUntil: { $exists: true } })).to.equal(1);
    } finally {
      await connection.close();
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
