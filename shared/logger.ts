/**
 * pino logger; modules take a child: `const log = logger.child({ module: 'ping' })`.
 * API keys are redacted wherever they appear; ping URLs go through
 * {@link redactPingPath} before they are logged.
 */
import { pino } from 'pino';
import { config } from './config.js';

/** The root logger. */
export const logger = pino({
  level: config.logLevel,
  redact: ['req.headers["x-api-key"]', 'headers["x-api-key"]', 'api_key', 'apiKey'],
});

/** `/ping/` and what follows it, up to a query string or fragment. */
const PING_PATH_RE = /(\/ping\/)[^?#]*/;

/**
 * A request path fit for the logs: everything after `/ping/` is replaced, since
 * a Pinging API path carries a check UUID or a project's ping key, and either
 * lets anyone ping the check. Other paths are returned unchanged.
 *
 * @param path - A request path, with or without a query string.
 * @returns For example `/ping/[redacted]` for `/ping/<uuid>/fail`.
 */
export function redactPingPath(path: string): string {
  return path.replace(PING_PATH_RE, '$1[redacted]');
}
