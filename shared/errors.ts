/**
 * The one error type the service raises on purpose. `server/middleware/errors.ts`
 * maps it to HTTP; anything else becomes a logged 500.
 */

/** How an {@link AppError} body is written. */
export type ErrorBody = 'json' | 'text' | 'empty';

/**
 * An error with an HTTP status.
 *
 * `body` selects the response shape: `json` gives `{"error": message}`,
 * `text` gives the message as `text/plain`, `empty` gives no body (behaviour.md
 * §3.5: 403, 405 and bad flips queries have empty bodies).
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
