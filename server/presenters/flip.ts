/** Flip JSON (docs/api-reference.md, "Flip object"). */
import type { FlipDoc } from '../../shared/models/flip.js';
import { isoSeconds } from './time.js';

/** A flip as `GET …/flips/` lists it. */
export interface FlipJson {
  /** Truncated to whole seconds, `+00:00` offset. */
  timestamp: string;
  /** 1 for a change into `up`, 0 otherwise. */
  up: 0 | 1;
}

/** `{timestamp, up}` of a flip. */
export function presentFlip(flip: Pick<FlipDoc, 'created' | 'newStatus'>): FlipJson {
  return { timestamp: isoSeconds(flip.created), up: flip.newStatus === 'up' ? 1 : 0 };
}
