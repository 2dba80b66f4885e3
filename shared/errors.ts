/** The one error type raised on purpose; server/middleware/errors.ts maps it to HTTP, anything else is a 500. */

/** How an {@link AppError} body is written. */
export type ErrorBody = 'json' | 'text' | 'empty';

/**
 * An error with an HTTP status. `body`: `json` gives `{"error": message}`, `text` the message as text/plain, `empty`
 * no body (docs/api-reference.md, "Status codes": 403, 405 and bad flips queries).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: ErrorBody = 'json',
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** 404 with `{"error": "not found"}`. */
export function notFound(): AppError {
  return new AppError(404, 'not found');
}
