/**
 * MongoDB connection through Mongoose. Works with MongoDB, mongodb-memory-server
 * and FerretDB: no transactions and no FerretDB-only behaviour are relied on.
 */
import mongoose from 'mongoose';

/**
 * Connects the default Mongoose connection and builds the models' indexes.
 *
 * @param uri - A mongodb:// URI including the database name.
 * @throws the driver's error when the server cannot be reached within 10 s.
 */
export async function connectDb(uri: string): Promise<void> {
  await mongoose.connect(uri, { serverSelectionTimeoutMS: 10_000, autoIndex: false });
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
    return mongoose.connection.readyState === 1;
  } catch {
    return false;
  }
}
