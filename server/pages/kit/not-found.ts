/**
 * The web app's 404 for an address no route has: a browser (one that prefers HTML to JSON) gets a page in the app's
 * layout with a link home; anyone else, and every `/api/…` and `/ping/…` path, gets the JSON or plain-text 404 of
 * server/middleware/errors.ts as before.
 */
import type { RequestHandler } from 'express';
import { render } from './render.js';

/** Paths whose 404 stays the API's or the Pinging API's. */
const API_PATH = /^\/(api|ping)(\/|$)/;

/** Answers a browser's request for an unknown address with the error page (404); passes anything else on. */
export const pageNotFound: RequestHandler = (req, res, next) => {
  if (API_PATH.test(req.path) || req.accepts(['json', 'html']) !== 'html') return next();
  render(req, res, 'error', { title: 'Not found', status: 404, message: 'there is no page at this address' }, 404);
};
