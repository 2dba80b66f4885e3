/**
 * Replay of the ping journals of stopped web processes
 * (shared/services/journal-replay.ts): every half PING_JOURNAL_LEASE_MS, a
 * worker looks for journals whose lease lapsed and applies what they hold, so
 * the pings a killed web process acknowledged from Redis reach MongoDB.
 */
import { config as appConfig } from '../shared/config.js';
import { logger } from '../shared/logger.js';
import { replayDeadJournals } from '../shared/services/journal-replay.js';
import type { WorkerDeps } from './deps.js';

const log = logger.child({ module: 'journals' });

/**
 * Starts looking for dead journals.
 *
 * @param deps - Redis connection, queues and clock.
 * @returns Stops looking, after a replay under way has finished.
 */
export function replayJournals(deps: Pick<WorkerDeps, 'connection' | 'queues' | 'clock'>): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const look = (): void => {
    running ??= replayDeadJournals(deps, deps.connection, appConfig.queuePrefix)
      .catch((err: unknown) => log.error({ err }, 'cannot replay a stopped web process\'s ping journal; trying again'))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(look, Math.floor(appConfig.pingJournalLeaseMs / 2));
  look();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
