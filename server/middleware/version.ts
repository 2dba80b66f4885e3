/** A request's Management API version, from its `/api/v<N>/` mount path (docs/api-reference.md, "Paths and versions"). */
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

/** Marks every request through the router it is mounted on (`/api/v<version>`) as `version`. */
export function useApiVersion(version: ApiVersion): RequestHandler {
  return (req, _res, next) => {
    req.apiVersion = version;
    next();
  };
}

/** The request's API version. @throws Error when no versioned router handled it (a programming error). */
export function apiVersionOf(req: Request): ApiVersion {
  if (req.apiVersion === undefined) throw new Error('useApiVersion must run first');
  return req.apiVersion;
}
