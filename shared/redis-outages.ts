/**
 * Redis trouble as one log line per outage. ioredis emits an `error` for every
 * failed reconnection attempt, and BullMQ queues on the connection re-emit
 * each one; without a listener both print a stack trace per attempt.
 */
import type { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { describeRedis, reasonOf } from './unreachable.js';

/** What is known about one connection's outages. */
export interface RedisOutages {
  /** The reason of the last connection error, or undefined when there was none. */
  lastReason(): string | undefined;
  /** Adds emitters (BullMQ queues) whose errors belong to this connection. */
  watch(emitters: Iterable<EventEmitter>): void;
}

/** Options of {@link reportRedisOutages}. */
export interface OutageOptions {
  /**
   * Say nothing until the connection has been ready once: at boot `waitForRedis`
   * reports a Redis that never came up, as the one line the process stops with.
   */
  quietUntilReady?: boolean;
}

const tracked = new WeakMap<Redis, RedisOutages>();

/**
 * Starts (or continues) reporting `redis`'s outages to `log`: one warning when
 * the connection is lost (`Redis unreachable; retrying`, with its address and
 * reason) and one info line when it is back. An error while the connection is
 * ready (a failed command) is logged as a warning each time. Calling it again
 * for the same connection adds `emitters` and keeps the first call's options.
 *
 * @param redis - The connection.
 * @param log - Where the lines go.
 * @param emitters - Queues on the connection; their `error` events count as the connection's.
 * @param options - See {@link OutageOptions}.
 * @returns The connection's outage record.
 */
export function reportRedisOutages(
  redis: Redis,
  log: Logger,
  emitters: Iterable<EventEmitter> = [],
  options: OutageOptions = {},
): RedisOutages {
  const known = tracked.get(redis);
  if (known) {
    known.watch(emitters);
    return known;
  }
  const target = describeRedis(redis.options);
  let reason: string | undefined;
  let everReady = redis.status === 'ready';
  let announced = false;
  const onError = (err: unknown): void => {
    reason = reasonOf(err);
    if (redis.status === 'ready') {
      log.warn({ redis: target, reason }, 'redis error');
      return;
    }
    if (announced || (options.quietUntilReady && !everReady)) return;
    announced = true;
    log.warn({ redis: target, reason }, 'Redis unreachable; retrying');
  };
  redis.on('error', onError);
  redis.on('ready', () => {
    if (announced) log.info({ redis: target }, 'Redis reachable again');
    everReady = true;
    announced = false;
  });
  const outages: RedisOutages = {
    lastReason: () => reason,
    watch: (more) => {
      for (const emitter of more) emitter.on('error', onError);
    },
  };
  outages.watch(emitters);
  tracked.set(redis, outages);
  return outages;
}
