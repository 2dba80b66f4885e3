/** Redis connections: web processes fail fast without Redis (no offline queue); workers wait (`maxRetriesPerRequest: null`, as BullMQ requires). */
import { Redis } from 'ioredis';

/** Which process the connection serves. */
export type RedisRole = 'web' | 'worker';

/** Opens a Redis connection for `role` to `url`, a redis:// or rediss:// URL. */
export function createRedis(url: string, role: RedisRole): Redis {
  return new Redis(url, { maxRetriesPerRequest: role === 'worker' ? null : 1, enableOfflineQueue: role === 'worker', lazyConnect: false });
}
