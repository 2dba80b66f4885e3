/**
 * Bulk updates in bounded commands. A batch of hundreds of updates is sent as
 * several commands of at most {@link BULK_CHUNK} updates each, all at once: the
 * same single round trip of waiting, and no server has to hold hundreds of
 * statements' resources in one command (FerretDB 1.x keeps one SQL connection
 * per update statement open until its command ends, and stalls for good once a
 * command needs more than its pool of 100).
 */
import type { Model, mongo } from 'mongoose';

/** Most updates in one bulk write command. */
export const BULK_CHUNK = 50;

/**
 * Sends `ops` through `write` (an unordered bulk write) in chunks of at most
 * {@link BULK_CHUNK} operations, all at once.
 *
 * @param write - Sends one chunk, e.g. `(chunk) => Check.bulkWrite(chunk, { ordered: false })`.
 * @returns How many documents the filters matched, in total.
 * @throws the first command's error (the other commands may have been applied).
 */
export async function bulkWriteChunked<T>(ops: readonly T[], write: (chunk: T[]) => Promise<{ matchedCount: number }>): Promise<number> {
  const chunks: T[][] = [];
  for (let i = 0; i < ops.length; i += BULK_CHUNK) chunks.push(ops.slice(i, i + BULK_CHUNK));
  const results = await Promise.all(chunks.map(write));
  return results.reduce((sum, res) => sum + res.matchedCount, 0);
}

/**
 * The driver's collection behind `model`, typed with the model's documents:
 * for hot bulk writes whose values are built here already of their stored
 * types, which mongoose's per-operation casting would only slow down.
 */
export function rawCollection<T extends mongo.Document>(model: Model<T>): mongo.Collection<T> {
  return model.collection as unknown as mongo.Collection<T>;
}
