/**
 * pino logger; modules take a child: `const log = logger.child({ module: 'ping' })`.
 * API keys are redacted wherever they appear.
 */
import { pino } from 'pino';
import { config } from './config.js';

/** The root logger. */
export const logger = pino({
  level: config.logLevel,
  redact: ['req.headers["x-api-key"]', 'headers["x-api-key"]', 'api_key', 'apiKey'],
});
