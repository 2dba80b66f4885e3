import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { startFerret, type FerretServer } from './server.js';
import { startPostgres, type Postgres } from './postgres.js';

const { ObjectId, Double, Long, BSON } = mongoose.mongo;
type Doc = mongoose.mongo.Document;
/** A filter as generated (its _id of any type), and as the driver types it. */
type Query = Record<string, unknown>;
const asFilter = (query: Query) => query as mongoose.mongo.Filter<Doc>;

/** A seeded pseudo-random generator (mulberry32) with the picks the test needs. */
class Random {
  constructor(private seed: number) {}
  next(): number {
    this.seed = (this.seed + 0x6d2b79f5) | 0;
    let t = Math.imul(this.seed ^ (this.seed >>> 15), 1 | this.seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(values: readonly T[]): T {
    return values[this.int(values.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** A moment of the test's half hour: every range boundary is also a stored value. */
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const PROJECTS = Array.from({ length: 4 }, (_, i) => new ObjectId(`64b000000000000000000${i.toString(16).padStart(3, '0')}`));

/**
 * Random documents, filters and updates of the shapes the service uses on checks
 * (`_id` of every type FerretDB pushes down or refuses to, `deadline` dates with
 * nulls, arrays and values of other types, `outbox` arrays of `{recorded}`,
 * `status`, `projectId` + `slug`), and the state they need (the ids stored).
 */
class Workload {
  readonly ids: unknown[] = [];
  private created = 0;
  private neverStored = 10_000_000;
  constructor(readonly random: Random) {}

  /** The `i`th _id, of a random type. */
  idFor(i: number): unknown {
    const r = this.random.next();
    if (r < 0.5) return new ObjectId(i.toString(16).padStart(24, '0'));
    if (r < 0.75) return `c${i}`;
    if (r < 0.85) return 1_000 + i; // int32
    if (r < 0.9) return new Double(3_000.5 + i);
    if (r < 0.95) return Long.fromNumber(2_000 + i);
    return new Date(Date.UTC(2030, 0, 1) + i);
  }

  date(): Date {
    return at(this.random.int(30));
  }

  deadline(): unknown {
    const r = this.random.next();
    if (r < 0.6) return this.date();
    if (r < 0.68) return null;
    if (r < 0.76) return [this.date(), this.date()];
    if (r < 0.81) return this.date().getTime();
    if (r < 0.86) return this.date().toISOString();
    if (r < 0.9) return new Date(Date.UTC(1960, 0, 1));
    if (r < 0.94) return { at: this.date() };
    return undefined; // missing
  }

  status(): unknown {
    const r = this.random.next();
    if (r < 0.9) return this.random.pick(['up', 'down', 'new', 'paused']);
    if (r < 0.95) return ['down'];
    if (r < 0.97) return ['up', 'down'];
    return undefined;
  }

  /** An array or nothing: `$push` fails on any other value, and which documents a failing updateMany updated first depends on the order it read them in. */
  outbox(): unknown {
    const r = this.random.next();
    if (r < 0.2) return undefined;
    if (r < 0.35) return [];
    if (r < 0.85) return Array.from({ length: 1 + this.random.int(3) }, () => ({ recorded: this.date(), kind: 'flip' }));
    if (r < 0.92) return [{ recorded: [this.date(), this.date()] }];
    if (r < 0.97) return [{ recorded: this.date().getTime() }];
    return [{ kind: 'other' }];
  }

  /** A subdocument, or an array of them, or another value. */
  last(): unknown {
    const r = this.random.next();
    if (r < 0.3) return undefined;
    if (r < 0.7) return { recorded: this.date() };
    if (r < 0.8) return [{ recorded: this.date() }, { recorded: this.date() }];
    if (r < 0.85) return { recorded: this.date().toISOString() };
    if (r < 0.9) return null;
    return { recorded: null };
  }

  document(): Doc {
    const i = this.created++;
    const doc: Doc = { _id: this.idFor(i), projectId: this.random.pick(PROJECTS), slug: `s${i}`, n: this.random.int(5) };
    for (const [key, value] of [['deadline', this.deadline()], ['status', this.status()], ['outbox', this.outbox()], ['last', this.last()]] as const) {
      if (value !== undefined) doc[key] = value;
    }
    this.ids.push(doc._id);
    return doc;
  }

  /** A stored _id mostly, sometimes one never stored. */
  id(): unknown {
    if (this.ids.length > 0 && this.random.chance(0.85)) return this.random.pick(this.ids);
    return this.idFor(this.neverStored++);
  }

  /** A filter matching at most one document (for updateOne and deleteOne). */
  uniqueFilter(): Query {
    switch (this.random.int(6)) {
      case 0: return { _id: this.id() };
      case 1: return { _id: { $eq: this.id() } };
      case 2: return { projectId: this.random.pick(PROJECTS), slug: `s${this.random.int(this.created + 5)}` };
      case 3: return { _id: this.id(), deadline: this.date() };
      case 4: return { _id: this.id(), status: 'up' };
      default: return { _id: this.id(), deadline: { $lte: this.date() } };
    }
  }

  filter(): Query {
    const op = () => this.random.pick(['$lt', '$lte', '$gt', '$gte']);
    const [d1, d2] = [this.date(), this.date()].sort((a, b) => a.getTime() - b.getTime()) as [Date, Date];
    switch (this.random.int(11)) {
      case 0: return this.uniqueFilter();
      case 1: return { _id: { $in: Array.from({ length: this.random.int(16) }, () => this.id()) } };
      case 2: return { _id: { $in: Array.from({ length: 1 + this.random.int(8) }, () => this.id()) }, status: { $ne: 'down' } };
      case 3: return { deadline: { $lte: d1 }, status: { $ne: 'down' } };
      case 4: return { deadline: { [op()]: d1 } };
      case 5: return { deadline: { $gt: d1, $lte: d2 } };
      case 6: return { 'outbox.recorded': { $lte: d1 } };
      case 7: return { 'outbox.recorded': { $gt: d1, $lt: d2 } };
      case 8: return { 'outbox.recorded': { [op()]: d1 }, deadline: { $ne: null } };
      case 9: return { 'last.recorded': this.random.chance(0.5) ? { [op()]: d1 } : { $gt: d1, $lte: d2 } };
      default: return { projectId: this.random.pick(PROJECTS), deadline: { [op()]: d1 } };
    }
  }

  update(): Doc {
    switch (this.random.int(6)) {
      case 0: {
        const deadline = this.deadline();
        return deadline === undefined ? { $unset: { deadline: '' } } : { $set: { deadline } };
      }
      case 1: return { $set: { status: this.random.pick(['up', 'down', 'new']) }, $inc: { n: 1 } };
      case 2: return { $inc: { n: 1 } };
      case 3: return { $push: { outbox: { recorded: this.date(), kind: 'flip' } } };
      case 4: return { $set: { outbox: this.outbox() ?? [], last: this.last() ?? null } };
      default: return { $unset: { outbox: '' }, $set: { status: 'up', deadline: this.date() } };
    }
  }
}

/** Canonical Extended JSON: distinguishes every BSON type and value. */
const canonical = (value: unknown) => BSON.EJSON.stringify(value, { relaxed: false });
const sorted = (docs: Doc[]) => docs.map(canonical).sort();

/** What an operation returned, or the error code it failed with. */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    return canonical({ ok: (await run()) ?? null });
  } catch (err) {
    return canonical({ error: (err as { code?: number }).code ?? String(err) });
  }
}

// FerretDB pushes part of a filter down to SQL and applies the whole filter
// again to what it reads, so a pushed-down filter may select more than the
// filter, never less. patches/002-postgresql-pushdown.diff pushes more down on
// PostgreSQL (`_id` equality and `$in` through the _id index, date ranges on
// plain and dotted keys as jsonpath filters). This test runs the same random
// operations on two servers, the patched build and the same build with
// -disable-pushdown (FerretDB's own option: every filter applied in FerretDB),
// and requires the same results from both, operation by operation.
for (const backend of ['SQLite', 'PostgreSQL'] as const) {
  describe(`embedded FerretDB on ${backend}: pushed-down filters give what FerretDB's own filtering gives (scripts/ferretdb/patches/002-postgresql-pushdown.diff)`, function () {
    this.timeout(300_000);
    const dirs: string[] = [];
    let postgres: Postgres | undefined;
    let servers: FerretServer[] = [];
    let clients: mongoose.mongo.MongoClient[] = [];

    before(async () => {
      let urls: (string | undefined)[] = [undefined, undefined];
      if (backend === 'PostgreSQL') {
        postgres = await startPostgres();
        await postgres.psql('CREATE DATABASE reference');
        urls = [postgres.url, postgres.url.replace(/\/ferretdb$/, '/reference')];
      }
      for (const [i, url] of urls.entries()) {
        dirs.push(mkdtempSync(join(tmpdir(), 'hc-ferretdb-pushdown-')));
        servers.push(await startFerret(dirs[i], url, { disablePushdown: i === 1 }));
      }
      clients = await Promise.all(servers.map((server) => new mongoose.mongo.MongoClient(server.uri, { serverSelectionTimeoutMS: 10_000 }).connect()));
    });
    after(async () => {
      await Promise.all(clients.map((client) => client.close()));
      await Promise.all(servers.map((server) => server.kill()));
      await postgres?.stop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      [servers, clients, postgres] = [[], [], undefined];
    });

    it('finds, counts, updates, findOneAndUpdate, deletes and upserts over random check-like documents', async () => {
      const seed = Number(process.env.PUSHDOWN_SEED ?? 20_260_101);
      const work = new Workload(new Random(seed));
      const [pushed, reference] = clients.map((client) => client.db('hc_pushdown').collection<Doc>('checks')) as [mongoose.mongo.Collection<Doc>, mongoose.mongo.Collection<Doc>];
      let last = '';
      const both = async (what: string, run: (c: mongoose.mongo.Collection<Doc>) => Promise<unknown>) => {
        if (!what.startsWith('every')) last = what;
        const [got, want] = [await outcome(() => run(pushed)), await outcome(() => run(reference))];
        // A failing updateMany leaves the documents it updated before the failure, in the order it read them: not comparable.
        expect(want, `${what} failed`).not.to.match(/^\{"error"/);
        if (got !== want) {
          const [g, w] = [JSON.parse(got) as { ok?: unknown }, JSON.parse(want) as { ok?: unknown }];
          if (Array.isArray(g.ok) && Array.isArray(w.ok)) {
            const [gs, ws] = [new Set(g.ok as unknown[]), new Set(w.ok as unknown[])];
            expect.fail(`${what} (seed ${seed}; last ${last}): pushed down, found ${[...gs].filter((x) => !ws.has(x)).join(', ') || 'nothing'} more and ${[...ws].filter((x) => !gs.has(x)).join(', ') || 'nothing'} less`);
          }
        }
        expect(got, `${what} (seed ${seed}; last ${last})`).to.equal(want);
        return got;
      };
      const dumps = async (step: number) => both(`every document after step ${step}`, async (c) => sorted(await c.find().toArray()));

      const initial = Array.from({ length: 300 }, () => work.document());
      await both('insertMany', (c) => c.insertMany(initial.map((doc) => ({ ...doc }))).then((r) => r.insertedCount));
      for (const c of [pushed, reference]) await c.createIndex({ projectId: 1, slug: 1 });
      // Sparse indexes (patches/006-sparse-indexes.diff) on fields some documents lack, and with nulls, arrays and other types.
      for (const c of [pushed, reference]) await c.createIndex({ deadline: 1 }, { sparse: true });
      for (const c of [pushed, reference]) await c.createIndex({ status: 1, last: 1 }, { sparse: true });

      let nonEmptyFinds = 0;
      const steps = backend === 'PostgreSQL' ? 600 : 300;
      for (let step = 0; step < steps; step++) {
        const r = work.random.next();
        if (r < 0.3) {
          const filter = work.filter();
          const found = await both(`find ${canonical(filter)}`, async (c) => sorted(await c.find(asFilter(filter)).toArray()));
          if (found !== canonical({ ok: [] })) nonEmptyFinds++;
        } else if (r < 0.4) {
          const filter = work.filter();
          await both(`countDocuments ${canonical(filter)}`, (c) => c.countDocuments(asFilter(filter)));
        } else if (r < 0.58) {
          const [filter, update] = [work.filter(), work.update()];
          await both(`updateMany ${canonical(filter)} ${canonical(update)}`, async (c) => {
            const res = await c.updateMany(asFilter(filter), update);
            return [res.matchedCount, res.modifiedCount];
          });
        } else if (r < 0.73) {
          const [filter, update, upsert] = [work.uniqueFilter(), work.update(), work.random.chance(0.1)];
          const upserting = upsert && '_id' in filter && Object.keys(filter).length === 1;
          await both(`updateOne ${canonical(filter)} ${canonical(update)}`, async (c) => {
            const res = await c.updateOne(asFilter(filter), update, { upsert: upserting });
            return [res.matchedCount, res.modifiedCount, res.upsertedId];
          });
        } else if (r < 0.85) {
          const [filter, update, after] = [work.filter(), work.update(), work.random.chance(0.5)];
          await both(`findOneAndUpdate ${canonical(filter)} ${canonical(update)}`, (c) => c.findOneAndUpdate(asFilter(filter), update, { sort: { _id: 1 }, returnDocument: after ? 'after' : 'before' }));
        } else if (r < 0.9) {
          const filter = work.uniqueFilter();
          await both(`deleteOne ${canonical(filter)}`, async (c) => (await c.deleteOne(asFilter(filter))).deletedCount);
        } else if (r < 0.91) {
          const filter = { deadline: { $lte: at(work.random.int(4)) }, status: 'paused' };
          await both(`deleteMany ${canonical(filter)}`, async (c) => (await c.deleteMany(filter)).deletedCount);
        } else {
          const doc = work.document();
          await both(`insertOne ${canonical(doc)}`, async (c) => (await c.insertOne({ ...doc })).insertedId);
        }
        if (step % 50 === 49) await dumps(step);
      }
      await dumps(steps);
      expect(nonEmptyFinds, 'finds that found something').to.be.greaterThan(steps * 0.3 * 0.4);

      if (backend === 'PostgreSQL') {
        // The patched server did push these filters down; the reference pushed nothing down.
        const d = at(10);
        const pushable = work.ids.filter((id) => id instanceof ObjectId || typeof id === 'string');
        for (const filter of [{ _id: pushable[0] }, { _id: { $in: pushable.slice(0, 5) } }, { deadline: { $lte: d }, status: { $ne: 'down' } }, { 'outbox.recorded': { $lte: d } }]) {
          const plans = await Promise.all(clients.map((client) => client.db('hc_pushdown').command({ explain: { find: 'checks', filter } })));
          expect(plans.map((plan) => plan.filterPushdown), canonical(filter)).to.deep.equal([true, false]);
        }
      }
    });
  });
}
