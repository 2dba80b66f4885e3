/** Placeholder; replaced by the ping routes. */
import { Router } from 'express';
import type { AppDeps } from '../app.js';

/** Router for ping. */
export function pingRouter(_deps: AppDeps): Router {
  return Router();
}
