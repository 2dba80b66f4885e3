/**
 * Redis connections. Web processes fail fast when Redis is away (no offline
 * queue); workers wait for it (`maxRetriesPerRequest: null`, as BullMQ requires).
 */
import { Redis } from 'ioredis';

/** Which process the connection serves. */
export type RedisRole = 'web' | 'worker';

/**
 * Opens a Redis connection for `role`.
 *
 * @param url - redis:// or rediss:// URL.
 */
export function createRedis(url: string, role: RedisRole): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: role === 'worker' ? null : 1,
    enableOfflineQueue: role === 'worker',
    lazyConnect: false,
  });
}
