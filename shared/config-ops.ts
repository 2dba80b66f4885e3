/** Operations settings: metrics, admin credential, worker metrics listener; shared/config.ts validates them. */
import Joi from 'joi';

/** HTTP Basic credential of the administrator (queue dashboard, process metrics). */
export interface AdminCredential {
  readonly user: string;
  readonly password: string;
}

/** Operations settings. */
export interface OpsConfig {
  /** Whether `/projects/<uuid>/metrics/<read-only key>` is served (reference: `PROMETHEUS_ENABLED`); off: 404. */
  readonly prometheusEnabled: boolean;
  /** Path of the process metrics in the web process (default `/metrics`). */
  readonly metricsPath: string;
  /** Bearer token that may read process metrics; null when unset. */
  readonly metricsToken: string | null;
  /** Admin credential; null when unset (then no dashboard is mounted). */
  readonly admin: AdminCredential | null;
  /** TCP port of the worker's metrics listener; null (the default) means none. */
  readonly workerMetricsPort: number | null;
  /** Address the worker's metrics listener binds to (default `0.0.0.0`). */
  readonly workerMetricsHost: string;
}

/** A path of letters, digits and `-._~/`, starting with `/`. */
const METRICS_PATH_RE = /^\/[-A-Za-z0-9._~/]*$/;

/** The operations settings' variables as the environment schema returns them: converted, defaults applied. */
export interface OpsEnv {
  readonly PROMETHEUS_ENABLED: boolean;
  readonly METRICS_PATH: string;
  readonly METRICS_TOKEN: string;
  readonly ADMIN_USER: string;
  readonly ADMIN_PASSWORD: string;
  /** No default: unset, no worker metrics listener. */
  readonly WORKER_METRICS_PORT?: number;
  readonly WORKER_METRICS_HOST: string;
}

/** Joi keys of the operations settings ({@link OpsEnv}), merged into the environment schema of `shared/config.ts`. */
export const opsSchemaKeys = {
  PROMETHEUS_ENABLED: Joi.boolean().truthy('1').falsy('0').default(true),
  METRICS_PATH: Joi.string().pattern(METRICS_PATH_RE).default('/metrics'),
  METRICS_TOKEN: Joi.string().allow('').default(''),
  ADMIN_USER: Joi.string().allow('').default(''),
  ADMIN_PASSWORD: Joi.string().allow('').default(''),
  WORKER_METRICS_PORT: Joi.number().integer().min(0).max(65535),
  WORKER_METRICS_HOST: Joi.string().ip().default('0.0.0.0'),
};

/**
 * The operations settings from the Joi-validated environment; an empty credential or token counts as unset.
 * @throws Error when only one of ADMIN_USER and ADMIN_PASSWORD is set, or when WORKER_METRICS_PORT is set with
 *   neither credential (the listener would be open to anyone).
 */
export function opsConfigOf(value: OpsEnv): OpsConfig {
  const user = value.ADMIN_USER;
  const password = value.ADMIN_PASSWORD;
  if ((user === '') !== (password === '')) {
    throw new Error('bad configuration: ADMIN_USER and ADMIN_PASSWORD must be set together');
  }
  const admin = user === '' ? null : Object.freeze({ user, password });
  const metricsToken = value.METRICS_TOKEN === '' ? null : value.METRICS_TOKEN;
  const workerMetricsPort = value.WORKER_METRICS_PORT ?? null;
  if (workerMetricsPort !== null && admin === null && metricsToken === null) {
    throw new Error('bad configuration: WORKER_METRICS_PORT needs METRICS_TOKEN or ADMIN_USER and ADMIN_PASSWORD');
  }
  return {
    prometheusEnabled: value.PROMETHEUS_ENABLED,
    metricsPath: value.METRICS_PATH,
    metricsToken,
    admin,
    workerMetricsPort,
    workerMetricsHost: value.WORKER_METRICS_HOST,
  };
}
