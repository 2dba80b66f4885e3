/**
 * JSON bodies of the Management API (docs/api-reference.md, "Request bodies"): POST only, strict UTF-8, before the key check; an empty body
 * is `{}`; Content-Type is ignored.
 */
import express, { type RequestHandler } from 'express';
import { AppError } from '../../shared/errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

const readRaw = express.raw({ type: () => true, limit: '1mb' });

/**
 * Reads and parses the body into `req.body` (a plain object).
 * @throws AppError(400) `could not parse request body` for bad JSON or UTF-8;
 *   `json validation error: value is not an object` for a non-object.
 */
export const parseJsonBody: RequestHandler = (req, res, next) => {
  readRaw(req, res, (err?: unknown) => {
    if (err) return next(new AppError(400, 'could not parse request body'));
    const raw: unknown = req.body;
    if (!Buffer.isBuffer(raw) || raw.length === 0) {
      req.body = {};
      return next();
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(utf8.decode(raw));
    } catch {
      return next(new AppError(400, 'could not parse request body'));
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return next(new AppError(400, 'json validation error: value is not an object'));
    }
    req.body = parsed;
    next();
  });
};
