/** MongoDB through Mongoose; no transactions and no server-specific behaviour relied on. */
import mongoose, { type Model } from 'mongoose';
import { config } from './config.js';
import { describeMongoUri, reasonOf, UnreachableError } from './unreachable.js';

/**
 * Connects to `uri` (database included) and builds the models' indexes; `timeoutMs`: milliseconds (default CONNECT_TIMEOUT_MS).
 * @throws UnreachableError `cannot reach MongoDB at <hosts/db>: <reason>` when no server answers in time.
 */
export async function connectDb(uri: string, timeoutMs: number = config.connectTimeoutMs): Promise<void> {
  try {
    await mongoose.connect(uri, { serverSelectionTimeoutMS: timeoutMs, autoIndex: false });
  } catch (err) {
    await mongoose.disconnect();
    throw new UnreachableError('MongoDB', describeMongoUri(uri), reasonOf(err));
  }
  await syncIndexes();
}

/**
 * Makes every registered model's indexes those its schema declares (idempotent): missing ones are built, and ones the schema no
 * longer declares, or declares with other options, are dropped first, since each index costs every write of its collection
 * (docs/architecture.md, "Indexes"). The service owns its collections' indexes.
 */
async function syncIndexes(): Promise<void> {
  const sync = () => Promise.all(Object.values(mongoose.models).map((m) => m.syncIndexes()));
  // Processes starting together race to drop and build the same index; the loser finds it done on its second pass.
  await sync().catch(async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await sync();
  });
}

/** Closes the default connection; waits for in-flight operations. */
export async function disconnectDb(): Promise<void> {
  await mongoose.disconnect();
}

/** True when the connection answers a ping within the driver's timeout. */
export async function isDbReachable(): Promise<boolean> {
  try {
    await mongoose.connection.db?.admin().ping();
    return mongoose.connection.readyState === mongoose.ConnectionStates.connected;
  } catch {
    return false;
  }
}

/** MongoDB's duplicate key error code. */
const DUPLICATE_KEY = 11000;

/** How many times {@link upsertRetrying} runs an upsert that lost a race. */
const UPSERT_ATTEMPTS = 3;

/**
 * Runs an upsert, again when it fails with a duplicate key: two upserts of one new key at once both find nothing, both insert, and
 * the loser's insert fails; run again it finds the winner's document and updates it (MongoDB's manual, "Upsert with Duplicate
 * Values": the client retries).
 *
 * @throws the driver's error, or the duplicate key error after {@link UPSERT_ATTEMPTS} attempts.
 */
export async function upsertRetrying<T>(upsert: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await upsert();
    } catch (err) {
      if ((err as { code?: number }).code !== DUPLICATE_KEY || attempt === UPSERT_ATTEMPTS) throw err;
    }
  }
}

/** The part of a driver's write error read here: its code, and the index of the document in the insert. */
interface WriteError {
  code?: number;
  index: number;
}

/**
 * insertMany (unordered, as given: no casting) that takes a document already
 * there, by a unique key, as done: a repeated completion or replay.
 *
 * @returns The documents this call inserted.
 * @throws the driver's error other than duplicate keys.
 */
export async function insertNew<T extends object>(model: Model<T>, docs: readonly T[]): Promise<T[]> {
  if (docs.length === 0) return [];
  try {
    await model.collection.insertMany([...docs], { ordered: false });
    return [...docs];
  } catch (err) {
    const { writeErrors, code } = err as { writeErrors?: WriteError[] | WriteError; code?: number };
    const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [{ code, index: -1 }];
    if (list.some((e) => e.code !== DUPLICATE_KEY || e.index < 0)) throw err;
    const present = new Set(list.map((e) => e.index));
    return docs.filter((_, i) => !present.has(i));
  }
}
