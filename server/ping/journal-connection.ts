/**
 * The ping journal's own Redis connection in the web process. It pipelines the commands issued in one tick into one write (ioredis auto-pipelining):
 * the journal appends of the pings read in one event-loop turn (server/ping/service.ts), and the deletions of the entries one batch stored, each cost
 * one write, not one per ping; and a ping's append does not wait behind the queue scripts on the main connection.
 */
import type { Redis } from 'ioredis';
import { config } from '../../shared/config.js';

/**
 * Opens the journal's connection from `redis`, the web process's main connection (ready), with its settings (no offline queue: a command fails at
 * once while Redis is away). Its errors are those of the outage `redis` already reports, so it logs none of its own.
 * @returns The new connection, ready; the caller quits it at shutdown.
 * @throws Error when it is not ready within CONNECT_TIMEOUT_MS (milliseconds).
 */
export async function openJournalConnection(redis: Redis): Promise<Redis> {
  const connection = redis.duplicate({ enableAutoPipelining: true });
  connection.on('error', () => undefined);
  if (connection.status === 'ready') return connection;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      connection.disconnect();
      reject(new Error(`the ping journal's Redis connection was not ready within ${config.connectTimeoutMs} ms`));
    }, config.connectTimeoutMs);
    connection.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return connection;
}
