/** pino logger; modules take a child (`logger.child({ module: 'ping' })`). API keys are redacted. */
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
 * A request path fit for the logs: what follows `/ping/` (a check UUID or ping key, with which anyone can ping)
 * becomes `[redacted]`; other paths are unchanged.
 */
export function redactPingPath(path: string): string {
  return path.replace(PING_PATH_RE, '$1[redacted]');
}
