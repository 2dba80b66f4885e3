/**
 * Redis connections: web processes fail fast without Redis (no offline queue); workers wait (`maxRetriesPerRequest: null`, as BullMQ requires).
 * With REDIS_CLUSTER_NODES every connection is an ioredis Cluster client; QUEUE_PREFIX's hash tag (`{hc}`) keeps each queue's keys in one slot.
 */
import { Cluster, Redis, type ClusterNode, type ClusterOptions } from 'ioredis';
import { config } from '../config.js';

/** Which process the connection serves. */
export type RedisRole = 'web' | 'worker';

/**
 * An ioredis Cluster client whose `duplicate(options)` also takes a standalone connection's options (the ping journal passes them), so code written
 * for one Redis runs unchanged on a cluster; `duplicate(nodes, options)` (BullMQ's call) keeps its meaning.
 */
function openCluster(nodes: ClusterNode[], options: ClusterOptions): Cluster {
  const cluster = new Cluster(nodes, options);
  const duplicate = (first?: ClusterNode[] | ClusterOptions, more: ClusterOptions = {}): Cluster =>
    openCluster(Array.isArray(first) ? first : nodes, { ...options, ...(Array.isArray(first) || first === undefined ? more : first) });
  return Object.assign(cluster, { duplicate });
}

/**
 * Opens a Redis connection for `role` to `url` (a redis:// or rediss:// URL), or to the cluster of REDIS_CLUSTER_NODES when set. A cluster client is
 * returned under the `Redis` type: it offers the commands, events, `status` and `duplicate` the service uses, and BullMQ takes either.
 */
export function createRedis(url: string, role: RedisRole): Redis {
  const options = { maxRetriesPerRequest: role === 'worker' ? null : 1, enableOfflineQueue: role === 'worker' };
  if (config.redisClusterNodes.length === 0) return new Redis(url, { ...options, lazyConnect: false });
  const cluster = openCluster([...config.redisClusterNodes], { redisOptions: options, enableOfflineQueue: options.enableOfflineQueue });
  return cluster as unknown as Redis;
}
