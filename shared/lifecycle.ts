/** Process lifecycle of web, worker and `npm start`: waiting for Redis at boot, a bounded graceful shutdown. */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { config } from './config.js';
import { logger } from './logger.js';
import { reportRedisOutages } from './redis-outages.js';
import { describeRedis, UnreachableError } from './unreachable.js';

/** Longest a graceful shutdown may take, milliseconds; well inside Heroku's 30 s from SIGTERM to SIGKILL. */
export const SHUTDOWN_TIMEOUT_MS = 10_000;

const redisLog = logger.child({ module: 'redis' });

/**
 * Waits until `redis` is ready (a web connection has no offline queue); meanwhile its errors are only recorded, so an
 * unreachable Redis is one line, not a stack trace per retry. `timeoutMs`: milliseconds (default CONNECT_TIMEOUT_MS).
 * @throws UnreachableError `cannot reach Redis at <host:port/db> after <n> ms: <reason>` when not ready in time.
 */
export async function waitForRedis(redis: Redis, timeoutMs: number = config.connectTimeoutMs): Promise<void> {
  const outages = reportRedisOutages(redis, redisLog, [], { quietUntilReady: true });
  if (redis.status === 'ready') return;
  // Not events.once: it rejects on the first 'error', which ioredis emits for every refused attempt while retrying.
  await new Promise<void>((resolve, reject) => {
    const onReady = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      const reason = outages.lastReason() ?? 'no answer';
      reject(new UnreachableError('Redis', describeRedis(redis.options), `${reason} (after ${timeoutMs} ms)`));
    }, timeoutMs);
    redis.once('ready', onReady);
  });
}

/**
 * Runs `close` once on the first SIGTERM or SIGINT, then exits: 0 when it resolved, 1 when it threw or outlasted
 * {@link SHUTDOWN_TIMEOUT_MS}. A second signal gets Node's default handling, so a stuck process can still be stopped.
 */
export function onShutdown(close: () => Promise<void>, log: Logger): void {
  let closing = false;
  const handle = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    setTimeout(() => {
      log.error({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, 'shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    void close().then(
      () => {
        log.info('shut down');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', handle);
  process.once('SIGINT', handle);
}
