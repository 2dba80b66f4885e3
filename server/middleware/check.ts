/**
 * The `<uuid>`/`<unique_key>` segment of Management API routes: its shape (docs/api-reference.md, "Paths and versions", "CORS and methods") and
 * the check it names, 404 when unknown, 403 in another project (docs/api-reference.md, "API keys", "Status codes").
 */
import type { Request, RequestHandler } from 'express';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { UUID_RE } from '../../shared/domain/ids.js';
import { AppError, notFound } from '../../shared/errors.js';
import { authOf } from './auth.js';

declare module 'express-serve-static-core' {
  interface Request {
    check?: CheckDoc;
  }
}

/** A check's `unique_key`: 40 lowercase hex characters (reference: the `sha1` path converter). */
const UNIQUE_KEY_RE = /^[0-9a-f]{40}$/;

/** `<n>` of a ping: a non-negative decimal integer. */
const PING_NUMBER_RE = /^[0-9]+$/;

/** Which identifiers a path accepts in place of `:code`. */
export type CheckIdForms = 'uuid' | 'uuid-or-key';

/** Methods a `checks/<unique_key>` path allows (docs/api-reference.md, "CORS and methods": GET only). */
const KEY_METHODS = ['GET', 'OPTIONS'];

/**
 * Route-shape guard for `endpoint()`, before the method counts; `forms` says whether `:code` may be a `unique_key`.
 * @throws AppError(404) for a malformed `:code` or `:n`; AppError(405, empty) for a non-GET on a `unique_key` path.
 */
export function checkPath(forms: CheckIdForms): RequestHandler {
  return (req, res, next) => {
    const code = String(req.params.code);
    if (req.params.n !== undefined && !PING_NUMBER_RE.test(String(req.params.n))) throw notFound();
    if (UUID_RE.test(code)) return next();
    if (forms === 'uuid' || !UNIQUE_KEY_RE.test(code)) throw notFound();
    res.set('Access-Control-Allow-Methods', KEY_METHODS.join(', '));
    if (!KEY_METHODS.includes(req.method)) throw new AppError(405, 'method not allowed', 'empty');
    next();
  };
}

/**
 * Loads the check `:code` names into `req.check`, after `requireKey`; a UUID is looked up everywhere to tell 403 apart.
 * @throws AppError(404) when no check matches; AppError(403, empty) when it belongs to another project.
 */
export const loadCheck: RequestHandler = async (req, _res, next) => {
  const { project } = authOf(req);
  const code = String(req.params.code);
  const check = UUID_RE.test(code)
    ? await Check.findById(code).lean<CheckDoc>()
    : await Check.findOne({ projectId: project._id, uniqueKey: code }).lean<CheckDoc>();
  if (!check) throw notFound();
  if (check.projectId !== project._id) throw new AppError(403, 'check belongs to another project', 'empty');
  req.check = check;
  next();
};

/** The check `loadCheck` loaded. @throws Error when `loadCheck` did not run (a programming error). */
export function checkOf(req: Request): CheckDoc {
  if (!req.check) throw new Error('loadCheck must run first');
  return req.check;
}
