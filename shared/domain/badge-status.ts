/** What a badge reports: which checks count and how their live statuses add up (docs/api-reference.md, "Badges"). Pure. */
import type { LiveStatus } from './status.js';

/** The status word of a badge. */
export type BadgeStatus = 'up' | 'late' | 'down';

/** 2-state badges show up/down only; 3-state badges also show late (docs/api-reference.md, "Badges"). */
export type BadgeStates = 2 | 3;

/** A badge's numbers, the `json` document of docs/api-reference.md, "Badges"; `grace` counts in 2-state mode too. */
export interface BadgeSummary {
  status: BadgeStatus;
  total: number;
  grace: number;
  down: number;
}

/** SVG colours per status (docs/api-reference.md, "Badges"). */
export const BADGE_COLORS: Readonly<Record<BadgeStatus, string>> = { up: '#4c1', late: '#fe7d37', down: '#e05d44' };

/** shields.io colour names per status (docs/api-reference.md, "Badges"). */
export const SHIELDS_COLORS: Readonly<Record<BadgeStatus, string>> = {
  up: 'success',
  late: 'important',
  down: 'critical',
};

/**
 * Adds up live statuses (docs/api-reference.md, "Badges"): `down` if any is down, else `late` if any is in grace and the
 * badge is 3-state, else `up`. New and paused checks count as up; an overrun run is already `down`.
 */
export function summarizeBadge(statuses: readonly LiveStatus[], states: BadgeStates): BadgeSummary {
  const down = statuses.filter((s) => s === 'down').length;
  const grace = statuses.filter((s) => s === 'grace').length;
  let status: BadgeStatus = 'up';
  if (down > 0) status = 'down';
  else if (grace > 0 && states === 3) status = 'late';
  return { status, total: statuses.length, grace, down };
}

/** Whether space-separated `tags` carry `tag` (not `*`) as an exact token (docs/api-reference.md, "Badges"). */
export function hasTag(tags: string, tag: string): boolean {
  return tags.split(' ').some((token) => token.trim() !== '' && token.trim() === tag);
}
