/**
 * The admin CLI's MongoDB session: connect, run one command, disconnect.
 */
import mongoose from 'mongoose';
import { config } from '../../shared/config.js';
import { AppError } from '../../shared/errors.js';
import '../../shared/models/index.js';
import { describeMongoUri, reasonOf } from '../../shared/unreachable.js';

/** How long to look for a reachable server, in milliseconds; a dead URI fails well within 10 s. */
const SERVER_SELECTION_TIMEOUT_MS = 5000;

/**
 * Runs `work` against `config.mongodbUri` (MONGODB_URI, default
 * mongodb://127.0.0.1:27017/hc) and always disconnects afterwards.
 * Indexes are left to the web and worker processes, which build them at boot.
 *
 * @param work - The command's database work.
 * @returns What `work` returns.
 * @throws AppError(503) `cannot reach MongoDB at <hosts/db>: <reason>` when no server answers; whatever `work` throws.
 */
export async function withDb<T>(work: () => Promise<T>): Promise<T> {
  try {
    await mongoose.connect(config.mongodbUri, { serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS, autoIndex: false });
  } catch (err) {
    await mongoose.disconnect();
    throw new AppError(503, `cannot reach MongoDB at ${describeMongoUri(config.mongodbUri)}: ${reasonOf(err)}`);
  }
  try {
    return await work();
  } finally {
    await mongoose.disconnect();
  }
}
