/**
 * One-line reports of MongoDB and Redis that cannot be reached: the error a
 * process stops with at boot, and the names of the servers it was looking for
 * (never their credentials).
 */

/**
 * MongoDB or Redis could not be reached. Its stack is just its message: the
 * place in the code says nothing the message does not, and a process that
 * logs it at boot prints one short line.
 */
export class UnreachableError extends Error {
  /**
   * @param service - `MongoDB` or `Redis`.
   * @param target - Where it was looked for, from {@link describeMongoUri} or {@link describeRedis}.
   * @param reason - The driver's last error, from {@link reasonOf}.
   */
  constructor(
    readonly service: 'MongoDB' | 'Redis',
    readonly target: string,
    reason: string,
  ) {
    super(`cannot reach ${service} at ${target}: ${reason}`);
    this.name = 'UnreachableError';
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** `mongodb[+srv]://[user:pass@]hosts[/db][?options]`. */
const MONGO_URI_RE = /^mongodb(?:\+srv)?:\/\/(?:[^@/]*@)?([^/?]*)(?:\/([^?]*))?/;

/**
 * The hosts and database of a MongoDB URI, without credentials or options.
 *
 * @param uri - A mongodb:// or mongodb+srv:// URI.
 * @returns For example `127.0.0.1:27017/hc`; the database is `test`, the
 *   driver's default, when the URI names none.
 */
export function describeMongoUri(uri: string): string {
  const match = MONGO_URI_RE.exec(uri);
  if (!match) return 'an unparsable MONGODB_URI';
  const db = match[2] ? decodeURIComponent(match[2]) : '';
  return `${match[1]}/${db || 'test'}`;
}

/**
 * Host, port and logical database of a Redis connection, without the password.
 *
 * @param options - An ioredis connection's `options`.
 * @returns For example `127.0.0.1:6379/0`.
 */
export function describeRedis(options: { host?: string; port?: number; db?: number }): string {
  return `${options.host ?? 'localhost'}:${options.port ?? 6379}/${options.db ?? 0}`;
}

/**
 * The first line of an error's message (`connect ECONNREFUSED 127.0.0.1:6379`);
 * for a message-less AggregateError (Node tries every address of `localhost`),
 * its first inner error's, else its code.
 */
export function reasonOf(err: unknown): string {
  const inner = err instanceof AggregateError && !err.message ? (err.errors[0] as unknown) : err;
  const message = inner instanceof Error ? inner.message || ((inner as NodeJS.ErrnoException).code ?? '') : String(inner);
  return message.split('\n', 1)[0]?.trim() || 'unknown error';
}

/**
 * Whether the error says the database could not be reached (the driver's
 * network and server-selection errors, Mongoose's buffering timeout): the
 * operation may succeed if retried. The API answers it 503; a journaled ping
 * (shared/services/ping-journal.ts) is kept for a replay.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  if (typeof name === 'string' && (name.startsWith('MongoNetwork') || name === 'MongoServerSelectionError')) return true;
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' && /buffering timed out/.test(message);
}
