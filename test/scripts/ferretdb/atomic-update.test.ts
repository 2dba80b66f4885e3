import { expect } from 'chai';
import mongoose from 'mongoose';
import { mongoTargets, type Server } from './targets.js';

type MongoClient = mongoose.mongo.MongoClient;

const CLIENTS = 8;
const ITERATIONS = 50;

/** `n` clients of their own (each its own connection pool) on `uri`. */
async function connectClients(uri: string, n: number): Promise<MongoClient[]> {
  return Promise.all(Array.from({ length: n }, () => new mongoose.mongo.MongoClient(uri, { serverSelectionTimeoutMS: 10_000, maxPoolSize: 2 }).connect()));
}

/** Counts of each value in `values`. */
function counts<T>(values: T[]): Map<T, number> {
  const result = new Map<T, number>();
  for (const value of values) result.set(value, (result.get(value) ?? 0) + 1);
  return result;
}

// MongoDB applies each single-document update atomically; FerretDB 1.x read the
// matching documents, updated them in memory and wrote them back by _id, so two
// concurrent updates of the same document could both apply to the same version
// and one overwrite the other. scripts/ferretdb/patches/001-update-atomic.diff
// writes back as a compare-and-set and retries. Run against MONGODB_URI's server
// when it is set, so these are MongoDB's own semantics.
for (const target of mongoTargets()) {
  describe(`single-document updates are atomic, as in MongoDB: ${target.name} (scripts/ferretdb/patches/001-update-atomic.diff)`, function () {
    this.timeout(180_000);
    let server: Server | undefined;
    let clients: MongoClient[] = [];
    const dbName = `hc_atomic_${process.pid}`;
    const collection = <T extends mongoose.mongo.Document>(client: MongoClient, name: string) => client.db(dbName).collection<T>(name);

    before(async function () {
      server = await target.start();
      if (!server) this.skip();
      clients = await connectClients(server.uri, CLIENTS);
    });
    after(async () => {
      await clients[0]?.db(dbName).dropDatabase().catch(() => undefined);
      await Promise.all(clients.map((client) => client.close()));
      await server?.stop();
      clients = [];
      server = undefined;
    });

    it(`no lost update: ${CLIENTS} clients × ${ITERATIONS} conditional updates (read, then updateOne({_id, rev}) with $set, $push; retried on no match) and $inc updates of one document`, async () => {
      type Doc = { _id: string; rev: number; log: string[]; by: Record<string, number>; n: number; incs: Record<string, number> };
      await collection<Doc>(clients[0], 'revs').insertOne({ _id: 'x', rev: 0, log: [], by: {}, n: 0, incs: {} });
      let conditional = 0;
      let retries = 0;
      const incs = new Array<number>(CLIENTS).fill(0);
      await Promise.all(clients.map(async (client, c) => {
        const docs = collection<Doc>(client, 'revs');
        for (let i = 0; i < ITERATIONS; i++) {
          for (;;) {
            const doc = (await docs.findOne({ _id: 'x' }))!;
            const res = await docs.updateOne({ _id: 'x', rev: doc.rev }, { $set: { rev: doc.rev + 1, [`by.c${c}`]: i }, $push: { log: `c${c}-${i}` } });
            expect(res.matchedCount).to.equal(res.modifiedCount);
            if (res.modifiedCount === 1) break;
            retries++;
          }
          conditional++;
          const inc = await docs.updateOne({ _id: 'x' }, { $inc: { n: 1, [`incs.c${c}`]: 1 } });
          expect(inc.modifiedCount).to.equal(1);
          incs[c]++;
        }
      }));

      const doc = (await collection<Doc>(clients[0], 'revs').findOne({ _id: 'x' }))!;
      expect(conditional).to.equal(CLIENTS * ITERATIONS);
      expect(doc.rev, `final rev after ${conditional} successful conditional updates (${retries} retried)`).to.equal(conditional);
      expect(doc.log).to.have.length(conditional);
      expect([...counts(doc.log).values()].every((n) => n === 1), 'each tag pushed once').to.equal(true);
      for (let c = 0; c < CLIENTS; c++) {
        expect(doc.by[`c${c}`]).to.equal(ITERATIONS - 1);
        expect(doc.incs[`c${c}`]).to.equal(incs[c]);
      }
      expect(doc.n).to.equal(incs.reduce((a, b) => a + b, 0));
    });

    it(`no lost update: ${CLIENTS} clients × ${ITERATIONS} findOneAndUpdate, conditional on rev and unconditional $inc, return each version once`, async () => {
      type Doc = { _id: string; rev: number; seq: number; log: string[] };
      await collection<Doc>(clients[0], 'fam').insertOne({ _id: 'y', rev: 0, seq: 0, log: [] });
      const befores: number[] = [];
      const seqs: number[] = [];
      await Promise.all(clients.map(async (client, c) => {
        const docs = collection<Doc>(client, 'fam');
        for (let i = 0; i < ITERATIONS; i++) {
          for (;;) {
            const doc = (await docs.findOne({ _id: 'y' }))!;
            const before = await docs.findOneAndUpdate({ _id: 'y', rev: doc.rev }, { $set: { rev: doc.rev + 1 }, $push: { log: `c${c}-${i}` } }, { returnDocument: 'before' });
            if (!before) continue;
            expect(before.rev).to.equal(doc.rev);
            befores.push(before.rev);
            break;
          }
          const after = await docs.findOneAndUpdate({ _id: 'y' }, { $inc: { seq: 1 } }, { returnDocument: 'after' });
          seqs.push(after!.seq);
        }
      }));

      const total = CLIENTS * ITERATIONS;
      const doc = (await collection<Doc>(clients[0], 'fam').findOne({ _id: 'y' }))!;
      expect(doc.rev).to.equal(total);
      expect(doc.log).to.have.length(total);
      expect(doc.seq).to.equal(total);
      expect([...befores].sort((a, b) => a - b), 'each rev returned as "before" once').to.deep.equal(Array.from({ length: total }, (_, i) => i));
      expect([...seqs].sort((a, b) => a - b), 'each seq returned as "after" once').to.deep.equal(Array.from({ length: total }, (_, i) => i + 1));
    });

    it('a queue claimed by concurrent findOneAndUpdate and updateOne hands each document out once, and none is left unclaimed', async () => {
      type Job = { _id: string; state: string; claims: number; by?: number };
      const docs = collection<Job>(clients[0], 'queue');
      const n = 60;
      await docs.insertMany(Array.from({ length: n }, (_, i) => ({ _id: `j${String(i).padStart(3, '0')}`, state: 'ready', claims: 0 })));
      const claimed: string[] = [];
      let claimedByUpdateOne = 0;
      await Promise.all(clients.map(async (client, c) => {
        const queue = collection<Job>(client, 'queue');
        for (;;) {
          if (c % 2 === 0) {
            const job = await queue.findOneAndUpdate({ state: 'ready' }, { $set: { state: 'taken', by: c }, $inc: { claims: 1 } }, { sort: { _id: 1 } });
            if (!job) return;
            claimed.push(job._id);
          } else {
            const res = await queue.updateOne({ state: 'ready' }, { $set: { state: 'taken', by: c }, $inc: { claims: 1 } });
            expect(res.matchedCount).to.equal(res.modifiedCount);
            if (res.modifiedCount === 0) return;
            claimedByUpdateOne++;
          }
        }
      }));

      expect(new Set(claimed).size, 'jobs findOneAndUpdate returned').to.equal(claimed.length);
      expect(claimed.length + claimedByUpdateOne).to.equal(n);
      expect(await docs.countDocuments({ state: 'ready' })).to.equal(0);
      expect(await docs.countDocuments({ claims: 1 })).to.equal(n);
    });

    it('concurrent upserts of one new _id: one inserts it and the others update it, none failing with a duplicate key', async () => {
      type Doc = { _id: string; n: number; by: number[] };
      const keys = Array.from({ length: 10 }, (_, i) => `u${i}`);
      for (const key of keys) {
        const results = await Promise.all(clients.map((client, c) => collection<Doc>(client, 'upserts').updateOne({ _id: key }, { $inc: { n: 1 }, $push: { by: c } }, { upsert: true })));
        expect(results.filter((r) => r.upsertedCount === 1)).to.have.length(1);
        expect(results.filter((r) => r.modifiedCount === 1)).to.have.length(CLIENTS - 1);
      }
      const docs = await collection<Doc>(clients[0], 'upserts').find().toArray();
      expect(docs.map((d) => [d._id, d.n, d.by.length])).to.have.deep.members(keys.map((key) => [key, CLIENTS, CLIENTS]));
    });

    it('concurrent updateMany: each applies to every document it matches once; a document another changed so that it no longer matches is neither updated nor counted', async () => {
      type Doc = { _id: number; group: string; state: string; flips: number; n: number };
      const docs = collection<Doc>(clients[0], 'many');
      const n = 40;
      await docs.insertMany(Array.from({ length: n }, (_, i) => ({ _id: i, group: 'g', state: 'a', flips: 0, n: 0 })));
      const rounds = 10;
      let flipped = 0;
      await Promise.all(clients.map(async (client) => {
        const many = collection<Doc>(client, 'many');
        const flip = await many.updateMany({ group: 'g', state: 'a' }, { $set: { state: 'b' }, $inc: { flips: 1 } });
        expect(flip.matchedCount).to.equal(flip.modifiedCount);
        flipped += flip.modifiedCount;
        for (let r = 0; r < rounds; r++) {
          const inc = await many.updateMany({ group: 'g' }, { $inc: { n: 1 } });
          expect(inc.modifiedCount).to.equal(n);
        }
      }));

      expect(flipped, 'documents the concurrent updateMany calls flipped, in all').to.equal(n);
      expect(await docs.countDocuments({ flips: 1, state: 'b' })).to.equal(n);
      expect(await docs.countDocuments({ n: CLIENTS * rounds })).to.equal(n);
    });
  });
}
