/**
 * A client for the FerretDB fault tests, run as its own process so a test can
 * kill -9 it mid-request. Argument: a MongoDB URI. Keeps 50 operations in
 * flight (upserts, inserts, sorted finds, a new database every 50 operations)
 * until killed, and prints `running` once the first operation succeeded.
 */
import mongoose from 'mongoose';

const [uri] = process.argv.slice(2);
if (!uri) throw new Error('usage: load-client MONGODB_URI');
const connection = await mongoose.createConnection(uri, { maxPoolSize: 50 }).asPromise();
const client = connection.getClient();
const db = client.db('hc_load');
await db.collection('checks').createIndex({ code: 1 }, { unique: true });

let next = 0;
let announced = false;
async function loop(): Promise<void> {
  for (;;) {
    const n = next++;
    await db.collection('checks').updateOne({ code: `c${n % 200}` }, { $inc: { nPings: 1 } }, { upsert: true });
    await db.collection('pings').insertOne({ check: n % 200, n, body: 'x'.repeat(200) });
    await db.collection('pings').find({ check: n % 200 }).sort({ n: -1 }).limit(20).toArray();
    if (n % 50 === 0) await client.db(`hc_load_${n}`).collection('flips').insertOne({ n });
    if (!announced) {
      announced = true;
      process.stdout.write('running\n');
    }
  }
}
await Promise.all(Array.from({ length: 50 }, loop));
