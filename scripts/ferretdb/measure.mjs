// Measures what the FerretDB patches' figures are about, on a running server:
//
//   node scripts/ferretdb/measure.mjs [--rule-indexes] MONGODB_URI [FERRETDB_PID [POSTMASTER_PID]] [REPEATS]
//
// In database hc_measure (dropped first) it stores 1,000 checks shaped as the
// service stores them, with the service's indexes, then runs each operation
// REPEATS times (default 5): a find of all of them by `_id: {$in}`, a bulk write
// of 1,000 updateOne by _id, one of 1,000 updateOne by {_id, deadline} that $push
// an outbox entry (the down write), and 1,000 pings inserted 100 at a time. It
// prints one JSON line: per operation the median and minimum wall time and, with
// the pids, CPU time of FerretDB and of PostgreSQL (the postmaster and its
// children), in ms. --rule-indexes adds the alerting rules' four sparse indexes
// (dependsOn, notifyLate, remindAt, heldUntil), on fields the checks lack. To compare two builds, run each on a database of its own,
// alternately and several times: the figures vary with the machine's load.
import { readFileSync, readdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';

const { MongoClient, ObjectId } = mongoose.mongo;
const ruleIndexes = process.argv.includes('--rule-indexes');
const [uri, ferretPid, postmasterPid, repeatsArg] = process.argv.slice(2).filter((arg) => arg !== '--rule-indexes');
if (!uri) throw new Error('usage: node scripts/ferretdb/measure.mjs [--rule-indexes] MONGODB_URI [FERRETDB_PID [POSTMASTER_PID]] [REPEATS]');
const repeats = Number(repeatsArg ?? 5);

/** CPU clock ticks (1/100 s) of process `pid`, and of its children with `children`. */
function ticks(pid, children = false) {
  if (!pid) return 0;
  let sum = 0;
  for (const entry of children ? readdirSync('/proc').filter((p) => /^\d+$/.test(p)) : [pid]) {
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      if (entry === pid || fields[1] === pid) sum += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return sum;
}

const client = await new MongoClient(uri).connect();
const db = client.db('hc_measure');
await db.dropDatabase();
const checks = db.collection('checks');
for (const key of [{ projectId: 1, created: 1 }, { projectId: 1, uniqueKey: 1 }, { projectId: 1, slug: 1 }, { badgeKey: 1 }, { deadline: 1 }, { 'outbox.recorded': 1 }]) await checks.createIndex(key);
if (ruleIndexes) for (const key of [{ dependsOn: 1 }, { notifyLate: 1 }, { remindAt: 1 }, { heldUntil: 1 }]) await checks.createIndex(key, { sparse: true });
const project = randomUUID();
const d0 = new Date(Date.UTC(2026, 0, 1));
const check = (i) => ({
  _id: randomUUID(), projectId: project, uniqueKey: randomUUID().slice(0, 16), name: `check ${i}`, slug: `check-${i}`, tags: 'prod db', desc: 'a check',
  kind: 'simple', timeout: 60, grace: 10, schedule: '* * * * *', tz: 'UTC', filterSubject: false, filterBody: false, filterHttpBody: false,
  filterDefaultFail: false, legacySubject: false, startKw: '', successKw: '', failureKw: '', methods: '', manualResume: false, badgeKey: randomUUID(),
  channels: [randomUUID()], nPings: 0, lastPing: null, lastStart: null, lastStartRid: null, lastDurationMs: null, deadline: d0, status: 'up', created: d0, outbox: [],
});
const docs = Array.from({ length: 1000 }, (_, i) => check(i));
const ids = docs.map((doc) => doc._id);
await checks.insertMany(docs);
await new Promise((resolve) => setTimeout(resolve, 5_000)); // the embedding program adds its PostgreSQL indexes

const results = {};
async function measure(name, run) {
  const rows = [];
  for (let r = 0; r < repeats; r++) {
    const [t0, f0, p0] = [performance.now(), ticks(ferretPid), ticks(postmasterPid, true)];
    await run(r);
    rows.push([performance.now() - t0, (ticks(ferretPid) - f0) * 10, (ticks(postmasterPid, true) - p0) * 10]);
  }
  const column = (k) => rows.map((row) => row[k]).sort((a, b) => a - b);
  const [wall, ferret, pg] = [0, 1, 2].map(column);
  const median = (values) => Math.round(values[Math.floor(values.length / 2)]);
  results[name] = { wallMs: median(wall), minWallMs: Math.round(wall[0]), ...(ferretPid && { ferretCpuMs: median(ferret) }), ...(postmasterPid && { pgCpuMs: median(pg) }) };
}

await measure('find 1,000 by _id $in', async () => {
  if ((await checks.find({ _id: { $in: ids } }).toArray()).length !== 1000) throw new Error('find');
});
await measure('bulk 1,000 updateOne by _id', async () => {
  const res = await checks.bulkWrite(ids.map((_id) => ({ updateOne: { filter: { _id }, update: { $set: { lastPing: new Date(), status: 'up' }, $inc: { nPings: 1 } } } })), { ordered: false });
  if (res.modifiedCount !== 1000) throw new Error('bulk');
});
await measure('bulk 1,000 updateOne by {_id, deadline} with $push', async (r) => {
  const [from, to] = [new Date(d0.getTime() + r * 1000), new Date(d0.getTime() + (r + 1) * 1000)];
  const outbox = () => ({ _id: new ObjectId(), at: from, recorded: new Date(), oldStatus: 'up', newStatus: 'down', reason: '' });
  const res = await checks.bulkWrite(ids.map((_id) => ({ updateOne: { filter: { _id, deadline: from }, update: { $set: { deadline: to, status: 'down' }, $push: { outbox: outbox() } } } })), { ordered: false });
  if (res.modifiedCount !== 1000) throw new Error('conditional bulk');
});
await measure('insertMany 1,000 pings (10 x 100)', async () => {
  for (let b = 0; b < 10; b++) await db.collection('pings').insertMany(Array.from({ length: 100 }, (_, i) => ({ check: ids[i], n: b * 100 + i, created: new Date(), kind: 'success', body: 'x'.repeat(100) })));
});
console.log(JSON.stringify(results));
await db.dropDatabase();
await client.close();
