/**
 * Process lifecycle shared by the web process, the worker process and
 * `npm start`: waiting for Redis at boot, and a bounded graceful shutdown on
 * SIGTERM/SIGINT.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { config } from './config.js';
import { logger } from './logger.js';
import { reportRedisOutages } from './redis-outages.js';
import { describeRedis, UnreachableError } from './unreachable.js';

/**
 * How long a graceful shutdown may take before the process exits anyway, in
 * milliseconds. Heroku sends SIGKILL 30 s after SIGTERM; we stay well inside.
 */
export const SHUTDOWN_TIMEOUT_MS = 10_000;

const redisLog = logger.child({ module: 'redis' });

/**
 * Waits until `redis` is ready. A web connection has no offline queue, so a
 * command sent before this would fail. Meanwhile the connection's errors are
 * only recorded, so an unreachable Redis is one line (the error this throws)
 * instead of a stack trace per reconnection attempt; from then on its outages
 * are reported one line each ({@link reportRedisOutages}).
 *
 * @param timeoutMs - Give up after this many milliseconds (default CONNECT_TIMEOUT_MS, 10 s).
 * @throws UnreachableError `cannot reach Redis at <host:port/db> after <n> ms: <reason>` when Redis is not ready in time.
 */
export async function waitForRedis(redis: Redis, timeoutMs: number = config.connectTimeoutMs): Promise<void> {
  const outages = reportRedisOutages(redis, redisLog, [], { quietUntilReady: true });
  if (redis.status === 'ready') return;
  // Not events.once: it rejects on the first 'error' event, and ioredis emits one for
  // every refused connection attempt while it keeps retrying.
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
 * Runs `close` once on the first SIGTERM or SIGINT, then exits: 0 when it
 * resolved, 1 when it threw or did not finish within {@link SHUTDOWN_TIMEOUT_MS}.
 * A second signal of the same kind gets Node's default handling (immediate
 * exit), so a stuck process can still be interrupted.
 *
 * @param close - Stops accepting work, waits for work in flight, closes connections.
 * @param log - Where progress and failures are logged.
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
