/** The sole mapping from errors to HTTP: `AppError` as it says, unreachable database 503, else a logged 500. */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError } from '../../shared/errors.js';
import { logger, redactPingPath } from '../../shared/logger.js';
import { isDatabaseUnavailable } from '../../shared/unreachable.js';

const log = logger.child({ module: 'http' });

/** Express error handler; keep it last. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (err instanceof AppError) {
    res.status(err.status);
    if (err.body === 'empty') res.end();
    else if (err.body === 'text') res.type('text/plain; charset=utf-8').send(err.message);
    else res.json({ error: err.message });
    return;
  }
  if (isDatabaseUnavailable(err)) {
    log.warn({ err: String(err), path: redactPingPath(req.originalUrl.split('?', 1)[0] ?? '') }, 'database unavailable');
    if (res.headersSent) return;
    const pingPath = req.originalUrl.startsWith('/ping/');
    res.status(503);
    if (pingPath) res.type('text/plain; charset=utf-8').send('service unavailable');
    else res.json({ error: 'service unavailable' });
    return;
  }
  const status = clientErrorStatus(err);
  if (status) {
    res.status(status).json({ error: status === 413 ? 'request body too large' : 'bad request' });
    return;
  }
  log.error({ err, method: req.method, path: redactPingPath(req.originalUrl.split('?', 1)[0] ?? '') }, 'unhandled error');
  if (res.headersSent) return;
  res.status(500).json({ error: 'internal error' });
};

/** The 4xx status Express or a parser attached to an error (bad percent-encoding, body too large), or undefined. */
function clientErrorStatus(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/** Final 404 for paths no route matched. */
export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ error: 'not found' });
};
