/** MongoDB through Mongoose; no transactions and no server-specific behaviour relied on. */
import mongoose from 'mongoose';
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
  await createIndexes();
}

/** Builds every registered model's indexes (idempotent). */
export async function createIndexes(): Promise<void> {
  await Promise.all(Object.values(mongoose.models).map((m) => m.createIndexes()));
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
