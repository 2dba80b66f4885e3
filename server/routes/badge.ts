/** Placeholder; replaced by the badge document routes. */
import { Router } from 'express';

/** Router for badge documents. */
export function badgeRouter(): Router {
  return Router();
}
