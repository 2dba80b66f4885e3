/** Redis and queue settings: the connection (one Redis or a Redis Cluster), the key prefix, job locks and recovery; shared/config.ts validates them. */
import Joi from 'joi';

/** Redis used when REDIS_URL is unset. */
export const LOCAL_REDIS_URL = 'redis://127.0.0.1:6379';

/** Redis and queue settings. */
export interface RedisConfig {
  /** Redis connection string (redis:// or rediss://); default the local one. */
  readonly redisUrl: string;
  /** REDIS_CLUSTER_NODES: the seed nodes of a Redis Cluster (`host:port`); when given, every process connects with ioredis' Cluster client. */
  readonly redisClusterNodes: readonly { host: string; port: number }[];
  /**
   * Prefix of every BullMQ key in Redis, so deployments (and test runs) sharing one Redis never touch each other's jobs; on a Redis Cluster a hash tag
   * such as `{hc}` keeps each queue's keys in one slot.
   */
  readonly queuePrefix: string;
  /** BullMQ job lock, milliseconds (renewed every half; stalled jobs are looked for every half): a killed worker's jobs move on within 1.5 times this. */
  readonly jobLockMs: number;
  /** How often each worker looks for owed work older than twice this and for a Redis that lost its data, milliseconds (shared/deadlines/recover.ts). */
  readonly recoveryIntervalMs: number;
}

/** The Redis settings' variables as the environment schema returns them: converted, defaults applied. */
export interface RedisEnv {
  readonly REDIS_URL?: string;
  readonly REDIS_CLUSTER_NODES?: string;
  readonly QUEUE_PREFIX: string;
  readonly JOB_LOCK_MS: number;
  readonly RECOVERY_INTERVAL_MS: number;
}

/** Joi keys of the Redis settings ({@link RedisEnv}), merged into the environment schema of `shared/config.ts`. */
export const redisSchemaKeys = {
  REDIS_URL: Joi.string().uri({ scheme: ['redis', 'rediss'] }),
  REDIS_CLUSTER_NODES: Joi.string()
    .pattern(/^[A-Za-z0-9.-]+:\d{1,5}(,[A-Za-z0-9.-]+:\d{1,5})*$/)
    .messages({ 'string.pattern.base': 'REDIS_CLUSTER_NODES must be host:port pairs separated by commas' }),
  // A Redis Cluster hash tag (`{hc}`) puts every key of every queue in one slot, as BullMQ's multi-key scripts need.
  QUEUE_PREFIX: Joi.string()
    .pattern(/^[A-Za-z0-9_-]*(\{[A-Za-z0-9_-]+\})?[A-Za-z0-9_-]*$/)
    .pattern(/[A-Za-z0-9_-]/)
    .default('hc')
    .messages({ 'string.pattern.base': 'QUEUE_PREFIX must be letters, digits, _ and -, with at most one Redis Cluster hash tag in balanced curly braces' }),
  JOB_LOCK_MS: Joi.number().integer().min(1000).default(4000),
  RECOVERY_INTERVAL_MS: Joi.number().integer().min(100).max(60_000).default(1000),
};

/**
 * The Redis settings from the Joi-validated environment; `env` is the raw one (whether QUEUE_PREFIX was given). On a cluster the default prefix
 * carries its hash tag.
 * @throws Error when a cluster is named with a QUEUE_PREFIX without a hash tag (each queue's keys would span slots).
 */
export function redisConfigOf(value: RedisEnv, env: NodeJS.ProcessEnv): RedisConfig {
  const onCluster = value.REDIS_CLUSTER_NODES !== undefined;
  if (onCluster && env.QUEUE_PREFIX !== undefined && !value.QUEUE_PREFIX.includes('{')) {
    throw new Error('bad configuration: QUEUE_PREFIX needs a hash tag such as {hc} with REDIS_CLUSTER_NODES, so that each queue\'s keys share one slot');
  }
  return {
    redisUrl: value.REDIS_URL ?? LOCAL_REDIS_URL,
    redisClusterNodes: Object.freeze(clusterNodesOf(value.REDIS_CLUSTER_NODES)),
    queuePrefix: onCluster && env.QUEUE_PREFIX === undefined ? `{${value.QUEUE_PREFIX}}` : value.QUEUE_PREFIX,
    jobLockMs: value.JOB_LOCK_MS,
    recoveryIntervalMs: value.RECOVERY_INTERVAL_MS,
  };
}

/** REDIS_CLUSTER_NODES (validated `host:port,...`) as nodes; none when unset. */
function clusterNodesOf(nodes: string | undefined): { host: string; port: number }[] {
  if (!nodes) return [];
  return nodes.split(',').map((node) => {
    const at = node.lastIndexOf(':');
    return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
  });
}
