/** Typed configuration: the only reader of `process.env`, validated with Joi; a bad value stops the boot. */
import Joi from 'joi';
import { notifyConfigOf, notifySchemaKeys, type NotifyConfig, type NotifyEnv } from './config-notify.js';
import { opsConfigOf, opsSchemaKeys, type OpsConfig, type OpsEnv } from './config-ops.js';
import { ssoConfigOf, ssoSchemaKeys, type SsoConfig, type SsoEnv } from './config-sso.js';
import { redisConfigOf, redisSchemaKeys, type RedisConfig, type RedisEnv } from './config-redis.js';
import { proxyConfigOf, proxySchemaKeys, type ProxyConfig, type ProxyEnv } from './config-proxy.js';

export { LOCAL_REDIS_URL } from './config-redis.js';

export type { NotifyConfig } from './config-notify.js';

/** The service's settings. Durations say their unit in the name. */
export interface Config extends RedisConfig, ProxyConfig {
  readonly nodeEnv: string;
  /** HTTP port of the web process. */
  readonly port: number;
  /** Site root for ping_url, update_url, badge URLs; no trailing slash. */
  readonly baseUrl: string;
  /** MongoDB connection string; default the local one `npm start` / `npm run services` provide. */
  readonly mongodbUri: string;
  /** Whether MONGODB_URI was set (hc-admin says which database it uses and why). */
  readonly mongodbUriGiven: boolean;
  readonly logLevel: string;
  /** Secret for badge signatures (docs/api-reference.md, "Badges"); never the development value in production. */
  readonly secretKey: string;
  /** Label of the project-wide (`*`) shields badge. */
  readonly siteName: string;
  /** Bytes of a ping body stored per ping (10,000 by default, as in Healthchecks; docs/pinging.md, "What a ping records"). */
  readonly pingBodyLimitBytes: number;
  /** Bytes of a ping body read at most; past it the ping is answered and the connection closed (docs/pinging.md, "Recording a ping"). */
  readonly pingBodyReadCapBytes: number;
  /** Default ping log limit of a new project (100 as in Healthchecks; docs/pinging.md, "Pruning"). */
  readonly defaultPingLogLimit: number;
  /** Default check limit of a new project (10,000, what a self-hosted Healthchecks gives every account; docs/api-reference.md, "Check limit"). */
  readonly defaultCheckLimit: number;
  /** Floor of `timeout` and `grace`, seconds: 60 (docs/api-reference.md, "Validation"); only `NODE_ENV=test` may lower it (TEST_MIN_PERIOD_SECONDS). */
  readonly minPeriodSeconds: number;
  /** How long a process waits at start for MongoDB and for Redis, in milliseconds. */
  readonly connectTimeoutMs: number;
  /** Interval of the deadline reconciliation sweep, in milliseconds. */
  readonly sweepIntervalMs: number;
  /** How often the worker looks for email reports and reminders due (docs/reports.md), milliseconds: REPORT_INTERVAL_MS, 5 minutes by default. */
  readonly reportIntervalMs: number;
  /** How long a worker's claim on one report mail lasts unless renewed, milliseconds (REPORT_LEASE_MS, 60 s): a killed worker's mail waits this. */
  readonly reportLeaseMs: number;
  /** Deadline jobs a worker runs at once; those running together share one read and one round of writes. */
  readonly deadlineConcurrency: number;
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
  /** Test only (`NODE_ENV=test`): the crash point at which the process kills itself with SIGKILL (shared/crash.ts). */
  readonly crashAt: string | null;
  /** TCP port of the smtpd process (inbound email pings, docs/email-pings.md). */
  readonly smtpPort: number;
  /** Address smtpd binds to; `0.0.0.0` (all interfaces) by default. */
  readonly smtpHost: string;
  /** Domain of check email addresses, lowercase; default the host of BASE_URL. */
  readonly pingEmailDomain: string;
  /** Largest message smtpd accepts, in bytes; larger ones get 552. */
  readonly smtpMaxMessageBytes: number;
  /** Whether the web app's sign-up page is open to anyone (REGISTRATION_OPEN, default false, as the reference self-hosted). */
  readonly registrationOpen: boolean;
  /** Alert delivery settings (docs/alerts.md). */
  readonly notify: NotifyConfig;
  /** Metrics, admin credential and queue dashboard (see shared/config-ops.ts). */
  readonly ops: OpsConfig;
  /** Single sign-on (shared/config-sso.ts). */
  readonly sso: SsoConfig;
}


/** MongoDB used when MONGODB_URI is unset. */
export const LOCAL_MONGODB_URI = 'mongodb://127.0.0.1:27017/hc';
/** SECRET_KEY when unset outside production; refused in production. */
export const DEVELOPMENT_SECRET_KEY = 'insecure-development-secret';

/**
 * The environment as the schema below returns it: converted, defaults applied
 * (optional: the variables without a default).
 */
interface Env extends NotifyEnv, OpsEnv, RedisEnv, SsoEnv, ProxyEnv {
  readonly NODE_ENV: string;
  readonly PORT: number;
  readonly BASE_URL?: string;
  readonly MONGODB_URI?: string;
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
  readonly REPORT_INTERVAL_MS: number;
  readonly REPORT_LEASE_MS: number;
  readonly DEADLINE_CONCURRENCY: number;
  readonly PING_TIMEOUT_MS: number;
  readonly PING_ACK_MS: number;
  readonly PING_ACK_BACKLOG: number;
  readonly PING_JOURNAL_MAX: number;
  readonly PING_JOURNAL_LEASE_MS: number;
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
  REPORT_INTERVAL_MS: Joi.number().integer().min(100).default(300_000),
  REPORT_LEASE_MS: Joi.number().integer().min(1000).default(60_000),
  DEADLINE_CONCURRENCY: Joi.number().integer().min(1).default(200),
  PING_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
  PING_ACK_MS: Joi.number().integer().min(0).default(1000),
  PING_ACK_BACKLOG: Joi.number().integer().min(1).default(100),
  PING_JOURNAL_MAX: Joi.number().integer().min(1).default(100_000),
  PING_JOURNAL_LEASE_MS: Joi.number().integer().min(1000).default(10_000),
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
  ...redisSchemaKeys,
  ...ssoSchemaKeys,
  ...proxySchemaKeys,
}).unknown(true);

/**
 * Validates an environment (usually `process.env`) and builds a frozen {@link Config}.
 * @throws Error naming the first bad variable, or a bad combination (see `opsConfigOf`, `redisConfigOf`).
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const result = schema.validate(env, { abortEarly: true });
  if (result.error) throw new Error(`bad configuration: ${result.error.message}`);
  const { value } = result;
  const port = value.PORT;
  const baseUrl = (value.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const proxy = proxyConfigOf(value);
  return Object.freeze({
    nodeEnv: value.NODE_ENV,
    ...redisConfigOf(value, env),
    port,
    baseUrl,
    mongodbUri: value.MONGODB_URI ?? LOCAL_MONGODB_URI,
    mongodbUriGiven: value.MONGODB_URI !== undefined,
    ...proxy,
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
    reportIntervalMs: value.REPORT_INTERVAL_MS,
    reportLeaseMs: value.REPORT_LEASE_MS,
    deadlineConcurrency: value.DEADLINE_CONCURRENCY,
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
    notify: Object.freeze(notifyConfigOf(value, baseUrl, value.SITE_NAME, value.SECRET_KEY)),
    ops: Object.freeze(opsConfigOf(value)),
    sso: Object.freeze(ssoConfigOf(value, proxy.trustProxy)),
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
