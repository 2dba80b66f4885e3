/** Placeholder; replaced by the api routes. */
import { Router } from 'express';
import type { AppDeps } from '../app.js';

/** Router for api. */
export function apiRouter(_deps: AppDeps): Router {
  return Router();
}
