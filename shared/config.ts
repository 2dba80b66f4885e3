/** Typed configuration: the only reader of `process.env`, validated with Joi; a bad value stops the boot. */
import Joi from 'joi';
import { notifyConfigOf, notifySchemaKeys, type NotifyConfig, type NotifyEnv } from './config-notify.js';
import { opsConfigOf, opsSchemaKeys, type OpsConfig, type OpsEnv } from './config-ops.js';

export type { NotifyConfig } from './config-notify.js';

/** The service's settings. Durations say their unit in the name. */
export interface Config {
  readonly nodeEnv: string;
  /** HTTP port of the web process. */
  readonly port: number;
  /** Site root for ping_url, update_url, badge URLs; no trailing slash. */
  readonly baseUrl: string;
  /** MongoDB connection string; default the local one `npm start` / `npm run services` provide. */
  readonly mongodbUri: string;
  /** Whether MONGODB_URI was set (hc-admin says which database it uses and why). */
  readonly mongodbUriGiven: boolean;
  /** Redis connection string (redis:// or rediss://); default the local one. */
  readonly redisUrl: string;
  /** REDIS_CLUSTER_NODES: the seed nodes of a Redis Cluster (`host:port`); when given, every process connects with ioredis' Cluster client. */
  readonly redisClusterNodes: readonly { host: string; port: number }[];
  /** Believe X-Forwarded-For/-Proto (default true, as the reference); false when clients connect directly. */
  readonly trustProxy: boolean;
  readonly logLevel: string;
  /** Secret for badge signatures (behaviour.md §3.12); never the development value in production. */
  readonly secretKey: string;
  /** Label of the project-wide (`*`) shields badge. */
  readonly siteName: string;
  /** Bytes of a ping body stored per ping (seed: first 10 kB; behaviour.md §4.2: 10000). */
  readonly pingBodyLimitBytes: number;
  /** Bytes of a ping body read at most; past it the ping is answered and the connection closed (behaviour.md §4.3 step 5). */
  readonly pingBodyReadCapBytes: number;
  /** Default ping log limit of a new project (behaviour.md §1.1: 100). */
  readonly defaultPingLogLimit: number;
  /** Default check limit of a new project (behaviour.md §1.1: 10,000 when self-hosted). */
  readonly defaultCheckLimit: number;
  /** Floor of `timeout` and `grace`, seconds: 60 (seed); only `NODE_ENV=test` may lower it (TEST_MIN_PERIOD_SECONDS). */
  readonly minPeriodSeconds: number;
  /** How long a process waits at start for MongoDB and for Redis, in milliseconds. */
  readonly connectTimeoutMs: number;
  /** Interval of the deadline reconciliation sweep, in milliseconds. */
  readonly sweepIntervalMs: number;
  /** Deadline jobs a worker runs at once; those running together share one read and one round of writes. */
  readonly deadlineConcurrency: number;
  /**
   * Prefix of every BullMQ key in Redis, so deployments (and test runs) sharing one Redis never touch each other's jobs; on a Redis Cluster a hash tag
   * such as `{hc}` keeps each queue's keys in one slot.
   */
  readonly queuePrefix: string;
  /** Longest a ping waits for the database before it is answered 503 (not acknowledged), milliseconds. */
  readonly pingTimeoutMs: number;
  /** Milliseconds a journaled ping waits for MongoDB before a 200 anyway (0: at once), so a client reads its own ping. */
  readonly pingAckMs: number;
  /** With at least this many of the process's pings waiting for MongoDB (a burst), pings are deferred: answered once journaled, applied by workers. */
  readonly pingAckBacklog: number;
  /** Most deferred pings a web process keeps waiting for the workers; past it a ping is answered 503 with Retry-After. */
  readonly pingJournalMax: number;
  /** How long a web process's ping journal outlives the process's last sign of life before a worker replays it, milliseconds. */
  readonly pingJournalLeaseMs: number;
  /** BullMQ job lock, milliseconds (renewed every half; stalled jobs are looked for every half): a killed worker's jobs move on within 1.5 times this. */
  readonly jobLockMs: number;
  /** How often each worker looks for owed work older than twice this and for a Redis that lost its data, milliseconds (shared/deadlines/recover.ts). */
  readonly recoveryIntervalMs: number;
  /** Test only (`NODE_ENV=test`): the crash point at which the process kills itself with SIGKILL (shared/crash.ts). */
  readonly crashAt: string | null;
  /** TCP port of the smtpd process (inbound email pings, behaviour.md §5). */
  readonly smtpPort: number;
  /** Address smtpd binds to; `0.0.0.0` (all interfaces) by default. */
  readonly smtpHost: string;
  /** Domain of check email addresses, lowercase; default the host of BASE_URL. */
  readonly pingEmailDomain: string;
  /** Largest message smtpd accepts, in bytes; larger ones get 552. */
  readonly smtpMaxMessageBytes: number;
  /** Whether the web app's sign-up page is open to anyone (REGISTRATION_OPEN, default false, as the reference self-hosted). */
  readonly registrationOpen: boolean;
  /** Alert delivery settings (behaviour.md §6). */
  readonly notify: NotifyConfig;
  /** Metrics, admin credential and queue dashboard (see shared/config-ops.ts). */
  readonly ops: OpsConfig;
}


/** MongoDB used when MONGODB_URI is unset. */
export const LOCAL_MONGODB_URI = 'mongodb://127.0.0.1:27017/hc';
/** Redis used when REDIS_URL is unset. */
export const LOCAL_REDIS_URL = 'redis://127.0.0.1:6379';
/** SECRET_KEY when unset outside production; refused in production. */
export const DEVELOPMENT_SECRET_KEY = 'insecure-development-secret';

/**
 * The environment as the schema below returns it: converted, defaults applied
 * (optional: the variables without a default).
 */
interface Env extends NotifyEnv, OpsEnv {
  readonly NODE_ENV: string;
  readonly PORT: number;
  readonly BASE_URL?: string;
  readonly MONGODB_URI?: string;
  readonly REDIS_URL?: string;
  readonly REDIS_CLUSTER_NODES?: string;
  readonly TRUST_PROXY: boolean;
  readonly LOG_LEVEL: string;
  readonly SECRET_KEY: string;
  readonly SITE_NAME: string;
  readonly PING_BODY_LIMIT: number;
  readonly PING_BODY_READ_CAP: number;
  readonly DEFAULT_PING_LOG_LIMIT: number;
  readonly DEFAULT_CHECK_LIMIT: number;
  readonly TEST_MIN_PERIOD_SECONDS?: number;
  readonly CONNECT_TIMEOUT_MS: number;
  readonly SWEEP_INTERVAL_MS: number;
  readonly DEADLINE_CONCURRENCY: number;
  readonly PING_TIMEOUT_MS: number;
  readonly PING_ACK_MS: number;
  readonly PING_ACK_BACKLOG: number;
  readonly PING_JOURNAL_MAX: number;
  readonly PING_JOURNAL_LEASE_MS: number;
  readonly JOB_LOCK_MS: number;
  readonly RECOVERY_INTERVAL_MS: number;
  readonly QUEUE_PREFIX: string;
  readonly TEST_CRASH_AT?: string;
  readonly SMTP_PORT: number;
  readonly SMTP_HOST: string;
  readonly PING_EMAIL_DOMAIN?: string;
  readonly SMTP_MAX_MESSAGE_BYTES: number;
  readonly REGISTRATION_OPEN: boolean;
}

const schema = Joi.object<Env>({
  NODE_ENV: Joi.string().valid('development', 'test', 'production').default('development'),
  PORT: Joi.number().integer().min(0).max(65535).default(8000),
  BASE_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  MONGODB_URI: Joi.string().uri({ scheme: ['mongodb', 'mongodb+srv'] }),
  REDIS_URL: Joi.string().uri({ scheme: ['redis', 'rediss'] }),
  REDIS_CLUSTER_NODES: Joi.string()
    .pattern(/^[A-Za-z0-9.-]+:\d{1,5}(,[A-Za-z0-9.-]+:\d{1,5})*$/)
    .messages({ 'string.pattern.base': 'REDIS_CLUSTER_NODES must be host:port pairs separated by commas' }),
  TRUST_PROXY: Joi.boolean().truthy('1').falsy('0').default(true),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  SECRET_KEY: Joi.when('NODE_ENV', {
    is: 'production',
    then: Joi.string().min(1).invalid(DEVELOPMENT_SECRET_KEY).required().messages({
      'any.required': 'SECRET_KEY must be set when NODE_ENV=production',
      'any.invalid': 'SECRET_KEY must not be the development value when NODE_ENV=production',
    }),
    otherwise: Joi.string().min(1).default(DEVELOPMENT_SECRET_KEY),
  }),
  SITE_NAME: Joi.string().default('hc-monitor'),
  PING_BODY_LIMIT: Joi.number().integer().min(0).default(10000),
  PING_BODY_READ_CAP: Joi.number().integer().min(Joi.ref('PING_BODY_LIMIT')).default(1024 * 1024),
  DEFAULT_PING_LOG_LIMIT: Joi.number().integer().min(1).default(100),
  DEFAULT_CHECK_LIMIT: Joi.number().integer().min(0).default(10_000),
  TEST_MIN_PERIOD_SECONDS: Joi.when('NODE_ENV', {
    is: 'test',
    then: Joi.number().integer().min(1).max(60),
    otherwise: Joi.forbidden().messages({ 'any.unknown': 'TEST_MIN_PERIOD_SECONDS is allowed only with NODE_ENV=test' }),
  }),
  CONNECT_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
  SWEEP_INTERVAL_MS: Joi.number().integer().min(1000).default(120_000),
  DEADLINE_CONCURRENCY: Joi.number().integer().min(1).default(200),
  PING_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
  PING_ACK_MS: Joi.number().integer().min(0).default(1000),
  PING_ACK_BACKLOG: Joi.number().integer().min(1).default(100),
  PING_JOURNAL_MAX: Joi.number().integer().min(1).default(100_000),
  PING_JOURNAL_LEASE_MS: Joi.number().integer().min(1000).default(10_000),
  JOB_LOCK_MS: Joi.number().integer().min(1000).default(4000),
  RECOVERY_INTERVAL_MS: Joi.number().integer().min(100).max(60_000).default(1000),
  // A Redis Cluster hash tag (`{hc}`) puts every key of every queue in one slot, as BullMQ's multi-key scripts need.
  QUEUE_PREFIX: Joi.string()
    .pattern(/^[A-Za-z0-9_-]*(\{[A-Za-z0-9_-]+\})?[A-Za-z0-9_-]*$/)
    .pattern(/[A-Za-z0-9_-]/)
    .default('hc')
    .messages({ 'string.pattern.base': 'QUEUE_PREFIX must be letters, digits, _ and -, with at most one Redis Cluster hash tag in balanced curly braces' }),
  TEST_CRASH_AT: Joi.when('NODE_ENV', {
    is: 'test',
    then: Joi.string(),
    otherwise: Joi.forbidden().messages({ 'any.unknown': 'TEST_CRASH_AT is allowed only with NODE_ENV=test' }),
  }),
  SMTP_PORT: Joi.number().integer().min(0).max(65535).default(2525),
  SMTP_HOST: Joi.string().ip().default('0.0.0.0'),
  PING_EMAIL_DOMAIN: Joi.string().hostname(),
  SMTP_MAX_MESSAGE_BYTES: Joi.number().integer().min(1024).default(10 * 1024 * 1024),
  REGISTRATION_OPEN: Joi.boolean().truthy('1').falsy('0').default(false),
  ...notifySchemaKeys,
  ...opsSchemaKeys,
}).unknown(true);

/**
 * Validates an environment (usually `process.env`) and builds a frozen {@link Config}.
 * @throws Error naming the first bad variable, or a bad combination (see `opsConfigOf`).
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const result = schema.validate(env, { abortEarly: true });
  if (result.error) throw new Error(`bad configuration: ${result.error.message}`);
  const { value } = result;
  const onCluster = value.REDIS_CLUSTER_NODES !== undefined;
  if (onCluster && env.QUEUE_PREFIX !== undefined && !value.QUEUE_PREFIX.includes('{')) {
    throw new Error('bad configuration: QUEUE_PREFIX needs a hash tag such as {hc} with REDIS_CLUSTER_NODES, so that each queue\'s keys share one slot');
  }
  const port = value.PORT;
  const baseUrl = (value.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return Object.freeze({
    nodeEnv: value.NODE_ENV,
    port,
    baseUrl,
    mongodbUri: value.MONGODB_URI ?? LOCAL_MONGODB_URI,
    mongodbUriGiven: value.MONGODB_URI !== undefined,
    redisUrl: value.REDIS_URL ?? LOCAL_REDIS_URL,
    redisClusterNodes: Object.freeze(clusterNodesOf(value.REDIS_CLUSTER_NODES)),
    trustProxy: value.TRUST_PROXY,
    logLevel: value.LOG_LEVEL,
    secretKey: value.SECRET_KEY,
    siteName: value.SITE_NAME,
    pingBodyLimitBytes: value.PING_BODY_LIMIT,
    pingBodyReadCapBytes: value.PING_BODY_READ_CAP,
    defaultPingLogLimit: value.DEFAULT_PING_LOG_LIMIT,
    defaultCheckLimit: value.DEFAULT_CHECK_LIMIT,
    minPeriodSeconds: value.TEST_MIN_PERIOD_SECONDS ?? 60,
    connectTimeoutMs: value.CONNECT_TIMEOUT_MS,
    sweepIntervalMs: value.SWEEP_INTERVAL_MS,
    deadlineConcurrency: value.DEADLINE_CONCURRENCY,
    // On a cluster the default prefix carries its hash tag.
    queuePrefix: onCluster && env.QUEUE_PREFIX === undefined ? `{${value.QUEUE_PREFIX}}` : value.QUEUE_PREFIX,
    jobLockMs: value.JOB_LOCK_MS,
    recoveryIntervalMs: value.RECOVERY_INTERVAL_MS,
    pingTimeoutMs: value.PING_TIMEOUT_MS,
    pingAckMs: value.PING_ACK_MS,
    pingAckBacklog: value.PING_ACK_BACKLOG,
    pingJournalMax: value.PING_JOURNAL_MAX,
    pingJournalLeaseMs: value.PING_JOURNAL_LEASE_MS,
    crashAt: value.TEST_CRASH_AT ?? null,
    smtpPort: value.SMTP_PORT,
    smtpHost: value.SMTP_HOST,
    pingEmailDomain: (value.PING_EMAIL_DOMAIN ?? new URL(baseUrl).hostname).toLowerCase(),
    smtpMaxMessageBytes: value.SMTP_MAX_MESSAGE_BYTES,
    registrationOpen: value.REGISTRATION_OPEN,
    notify: Object.freeze(notifyConfigOf(value, baseUrl, value.SITE_NAME)),
    ops: Object.freeze(opsConfigOf(value)),
  });
}

/** REDIS_CLUSTER_NODES (validated `host:port,...`) as nodes; none when unset. */
function clusterNodesOf(nodes: string | undefined): { host: string; port: number }[] {
  if (!nodes) return [];
  return nodes.split(',').map((node) => {
    const at = node.lastIndexOf(':');
    return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
  });
}

/** The process's configuration; a bad environment exits here, before anything starts, with one line on stderr. */
export const config: Config = loadProcessConfig();

function loadProcessConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
