/**
 * API key authentication (docs/api-reference.md, "API keys"): `X-Api-Key`, else the POST body's `api_key`, by SHA-256 digest; the
 * project's own two keys, else a named key made in the web app (shared/services/api-keys.ts), else a key a project
 * imported from Healthchecks kept (shared/services/reference-keys.ts, docs/migrating.md).
 */
import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { Project, type ProjectDoc } from '../../shared/models/project.js';
import { hashApiKey } from '../../shared/services/projects.js';
import { apiKeyByDigest } from '../../shared/services/api-keys.js';
import { projectByReferenceKey } from '../../shared/services/reference-keys.js';
import { AppError } from '../../shared/errors.js';

/** Which keys an endpoint accepts. */
export type Access = 'read' | 'write';

/** The authenticated project and whether the key is read-only. */
export interface Auth {
  project: ProjectDoc;
  readOnly: boolean;
}

declare module 'express-serve-static-core' {
  interface Request {
    auth?: Auth;
  }
}

const KEY_LENGTH = 32;

function keyOf(req: Request): string | undefined {
  const header = req.get('x-api-key');
  if (header !== undefined) return header;
  const body: unknown = req.body;
  if (req.method === 'POST' && typeof body === 'object' && body !== null && 'api_key' in body) return String(body.api_key);
  return undefined;
}

function sameDigest(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

/**
 * Requires an API key and sets `req.auth`; `read` access also accepts read-only keys.
 * @throws AppError(401) `missing api key` (not 32 characters) or `wrong api key`.
 */
export function requireKey(access: Access): RequestHandler {
  return async (req, _res, next) => {
    const key = keyOf(req);
    if (key === undefined || [...key].length !== KEY_LENGTH) throw new AppError(401, 'missing api key');
    const digest = hashApiKey(key);
    const project = await Project.findOne({ $or: [{ apiKeyHash: digest }, { apiKeyReadonlyHash: digest }] }).lean<ProjectDoc>();
    if (!project) {
      req.auth = await otherKeyAuth(key, digest, access);
      next();
      return;
    }
    const readOnly = sameDigest(project.apiKeyReadonlyHash, digest);
    if (!readOnly && !sameDigest(project.apiKeyHash, digest)) throw new AppError(401, 'wrong api key');
    if (readOnly && access === 'write') throw new AppError(401, 'wrong api key');
    req.auth = { project, readOnly };
    next();
  };
}

/** Auth by a named key, else an imported one. @throws AppError(401) `wrong api key` when none matches, or a read-only one for `write`. */
async function otherKeyAuth(plain: string, digest: string, access: Access): Promise<Auth> {
  const key = await apiKeyByDigest(digest);
  const project = key && sameDigest(key.hash, digest) ? await Project.findById(key.projectId).lean<ProjectDoc>() : null;
  const auth = key && project ? { project, readOnly: key.readOnly } : await projectByReferenceKey(plain);
  if (!auth || (auth.readOnly && access === 'write')) throw new AppError(401, 'wrong api key');
  return auth;
}

/** The request's auth. @throws Error when `requireKey` did not run (a programming error). */
export function authOf(req: Request): Auth {
  if (!req.auth) throw new Error('requireKey must run first');
  return req.auth;
}
