/** Redis trouble as one log line per outage, not a stack trace per failed reconnect (and per queue re-emitting it). */
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
  /** Say nothing until first ready: at boot, `waitForRedis` reports a Redis that never came up. */
  quietUntilReady?: boolean;
}

const tracked = new WeakMap<Redis, RedisOutages>();

/**
 * Reports `redis`'s outages to `log`: a warning when it is lost, an info line when it is back, a warning per error
 * while ready. `emitters` (its queues) count as the connection; a second call adds them, keeping the first's options.
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
