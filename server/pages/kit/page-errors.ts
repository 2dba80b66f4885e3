/**
 * The web app's errors as pages: an AppError's status and message, a refused CSRF token 403, a request's own 4xx
 * (its body, its path), anything else a logged 500 in plain text.
 */
import type { ErrorRequestHandler } from 'express';
import { AppError } from '../../../shared/errors.js';
import { logger } from '../../../shared/logger.js';
import { PAGE_HEADERS, render } from './render.js';

const log = logger.child({ module: 'pages' });

/** Largest form body read, as body-parser's `limit` (64 KB). */
export const FORM_LIMIT = '64 KB';

/** Whether `err` is csrf-sync's refusal of a token (its error carries `code`). */
function isCsrfError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'EBADCSRFTOKEN';
}

/**
 * The 4xx status of an error about the request rather than about us: body-parser's (`type` and `status`, e.g. 413
 * `entity.too.large`) or the router's (a path parameter that does not URL-decode, 400); null for any other error.
 */
function requestError(err: unknown): number | null {
  const { status } = (typeof err === 'object' && err !== null ? err : {}) as { status?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}

/** Renders a page's error: the `error` view with the status, or the 500 above. */
export const pageErrors: ErrorRequestHandler = (err, req, res, _next) => {
  if (err instanceof AppError) return render(req, res, 'error', { title: 'Error', status: err.status, message: err.message }, err.status);
  if (isCsrfError(err)) {
    const message = 'this form has expired or did not come from this site: go back, reload the page and try again';
    return render(req, res, 'error', { title: 'Error', status: 403, message }, 403);
  }
  const status = requestError(err);
  if (status === 413) return render(req, res, 'error', { title: 'Error', status, message: `this form is too large (over ${FORM_LIMIT}): shorten what you typed` }, status);
  if (status !== null) return render(req, res, 'error', { title: 'Error', status, message: 'this request could not be read: check the address or reload the page and try again' }, status);
  log.error({ err, path: req.path }, 'unhandled page error');
  res.status(500).set(PAGE_HEADERS).type('text').send('internal error');
};
