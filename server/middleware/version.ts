/**
 * The Management API version of a request (behaviour.md §3.1 rule 1, §7 item 5):
 * the same endpoints answer under `/api/v1/`, `/api/v2/` and `/api/v3/`, and
 * the version is read from the path prefix the router was mounted at.
 */
import type { Request, RequestHandler } from 'express';

/** The API versions served; 3 is current, 1 and 2 are what older clients speak. */
export const API_VERSIONS = [1, 2, 3] as const;

/** One of {@link API_VERSIONS}. */
export type ApiVersion = (typeof API_VERSIONS)[number];

declare module 'express-serve-static-core' {
  interface Request {
    apiVersion?: ApiVersion;
  }
}

/**
 * Marks every request through the router it is mounted on as `version`.
 *
 * @param version - The version of the mount path (`/api/v<version>`).
 */
export function useApiVersion(version: ApiVersion): RequestHandler {
  return (req, _res, next) => {
    req.apiVersion = version;
    next();
  };
}

/**
 * The request's API version.
 *
 * @throws Error when no versioned router handled the request (a programming error).
 */
export function apiVersionOf(req: Request): ApiVersion {
  if (req.apiVersion === undefined) throw new Error('useApiVersion must run first');
  return req.apiVersion;
}
