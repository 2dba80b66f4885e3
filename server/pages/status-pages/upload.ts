/**
 * The one multipart form of the web app, a status page's logo: read by multer into memory before the CSRF check (which then finds the form's
 * `_csrf` field), at most one file of {@link MAX_LOGO_BYTES}. A refused upload is left for the page to show beside its field
 * (`res.locals.uploadError`), not thrown.
 */
import multer from 'multer';
import type { RequestHandler } from 'express';
import { MAX_LOGO_BYTES } from './status-page-form.js';

/** The logo form's path. */
const LOGO_PATH = /^\/projects\/[^/]+\/status-pages\/[^/]+\/logo$/;

const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_LOGO_BYTES, files: 1, fields: 4, fieldSize: 1024 } }).single('logo');

/** Reads the logo form's body; passes any other request on untouched. */
export const logoUpload: RequestHandler = (req, res, next) => {
  if (req.method !== 'POST' || !LOGO_PATH.test(req.path) || !req.is('multipart/form-data')) return next();
  upload(req, res, (err: unknown) => {
    if (err instanceof multer.MulterError) {
      res.locals.uploadError = err.code === 'LIMIT_FILE_SIZE' ? `the logo is larger than ${MAX_LOGO_BYTES / 1024} KB` : 'send one image file in the logo field';
      req.body ??= {};
      return next();
    }
    next(err);
  });
};
