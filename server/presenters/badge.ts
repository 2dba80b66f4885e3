/** Badge documents (docs/api-reference.md, "Badges"): `svg`, `json` and `shields`. */
import type { Response } from 'express';
import { makeBadge } from 'badge-maker';
import { BADGE_COLORS, SHIELDS_COLORS, type BadgeSummary } from '../../shared/domain/badge-status.js';

/** The formats a badge URL may end in. */
export const BADGE_FORMATS = ['svg', 'json', 'shields'] as const;

/** One of {@link BADGE_FORMATS}. */
export type BadgeFormat = (typeof BADGE_FORMATS)[number];

/** Whether `fmt` names a badge format. */
export function isBadgeFormat(fmt: string): fmt is BadgeFormat {
  return (BADGE_FORMATS as readonly string[]).includes(fmt);
}

/**
 * Sends a badge: `svg` (flat, two-part), `json` (`{status, total, grace, down}`) or `shields` (shields.io endpoint
 * JSON); `label` is the tag, site name or check name. CORS and caching headers are the route's.
 */
export function sendBadge(res: Response, fmt: BadgeFormat, label: string, summary: BadgeSummary): void {
  if (fmt === 'json') {
    res.json({ status: summary.status, total: summary.total, grace: summary.grace, down: summary.down });
  } else if (fmt === 'shields') {
    res.json({ schemaVersion: 1, label, message: summary.status, color: SHIELDS_COLORS[summary.status] });
  } else {
    const svg = makeBadge({ label, message: summary.status, color: BADGE_COLORS[summary.status], style: 'flat' });
    res.type('image/svg+xml').send(svg);
  }
}
