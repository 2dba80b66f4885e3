/**
 * How a page names a check in its addresses (docs/wall.md, "What a wall sees"): a wall display by the check's
 * `unique_key` (docs/api-reference.md, "unique_key"; what the API shows a read-only key, docs/api-reference.md, "Check object"), never by its UUID, which is all
 * a ping needs when the project has no ping key; everyone signed in by the UUID.
 */
import type { Response } from 'express';
import type { CheckDoc } from '../../../shared/models/check.js';
import { UUID_RE, uniqueKeyOf } from '../../../shared/domain/ids.js';

/** A check's `unique_key`: 40 lowercase hex characters. */
export const UNIQUE_KEY_RE = /^[0-9a-f]{40}$/;

/** Whether this request is a wall display's (server/pages/kit/guard.ts sets `res.locals.wall`). */
export const isWall = (res: Response): boolean => res.locals.wall === true;

/** The path segment naming `check` to this request: its `unique_key` for a wall, else its UUID. */
export function checkSegment(res: Response, check: Pick<CheckDoc, '_id'>): string {
  return isWall(res) ? uniqueKeyOf(check._id) : check._id;
}

/**
 * The filter of the checks `segments` name for this request: `unique_key`s for a wall, UUIDs otherwise; segments of
 * the wrong form are dropped.
 */
export function checkFilterOf(res: Response, segments: string[]): { uniqueKey: { $in: string[] } } | { _id: { $in: string[] } } {
  return isWall(res)
    ? { uniqueKey: { $in: segments.filter((s) => UNIQUE_KEY_RE.test(s)) } }
    : { _id: { $in: segments.filter((s) => UUID_RE.test(s)) } };
}
