/** One-line reports of a MongoDB or Redis that cannot be reached, naming the server (never its credentials). */
import { config } from './config.js';

/** MongoDB or Redis could not be reached; its stack is its message, so a boot failure prints one short line. */
export class UnreachableError extends Error {
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

/** Hosts and database of a MongoDB URI, no credentials (`127.0.0.1:27017/hc`; `test`, the driver's default, if none). */
export function describeMongoUri(uri: string): string {
  const match = MONGO_URI_RE.exec(uri);
  if (!match) return 'an unparsable MONGODB_URI';
  const db = match[2] ? decodeURIComponent(match[2]) : '';
  return `${match[1]}/${db || 'test'}`;
}

/** Host, port and database of an ioredis connection's `options`, without the password (`127.0.0.1:6379/0`); on a cluster, its seed nodes. */
export function describeRedis(options: { host?: string; port?: number; db?: number }): string {
  // A cluster client's options name no host (shared/queues/connections.ts): its seed nodes are what the operator set.
  if (config.redisClusterNodes.length > 0) return `cluster ${config.redisClusterNodes.map((n) => `${n.host}:${n.port}`).join(',')}`;
  return `${options.host ?? 'localhost'}:${options.port ?? 6379}/${options.db ?? 0}`;
}

/**
 * First line of an error's message (`connect ECONNREFUSED 127.0.0.1:6379`); for a message-less AggregateError (Node
 * tries every address of `localhost`) its first inner error's, else its code.
 */
export function reasonOf(err: unknown): string {
  const inner = err instanceof AggregateError && !err.message ? (err.errors[0] as unknown) : err;
  const message = inner instanceof Error ? inner.message || ((inner as NodeJS.ErrnoException).code ?? '') : String(inner);
  return message.split('\n', 1)[0]?.trim() || 'unknown error';
}

/**
 * Whether the database could not be reached (driver network or server-selection error, Mongoose buffering timeout),
 * so a retry may succeed: the API answers 503, a journaled ping is kept for a replay.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  if (typeof name === 'string' && (name.startsWith('MongoNetwork') || name === 'MongoServerSelectionError')) return true;
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' && /buffering timed out/.test(message);
}
