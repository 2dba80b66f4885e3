/**
 * Badge test helpers: a fixed clock, checks in each live status, and badge paths.
 */
import { badgeUrls, type BadgeUrls } from '../../../../shared/domain/badges.js';
import { config } from '../../../../shared/config.js';
import type { CheckDoc } from '../../../../shared/models/check.js';
import { buildCheck, type TestProject } from '../../../helpers/factories.js';

/** The moment the tests' clock gives. */
export const NOW = new Date('2025-01-10T12:00:00Z');

/** The tests' clock. */
export const clock = (): Date => NOW;

function secondsAgo(seconds: number): Date {
  return new Date(NOW.getTime() - seconds * 1000);
}

/** Live statuses a check can be built in, relative to {@link NOW} (timeout and grace 60 s). */
export type Scenario = 'up' | 'grace' | 'down' | 'new' | 'paused' | 'overrun';

const SCENARIOS: Record<Scenario, Partial<CheckDoc>> = {
  up: { status: 'up', lastPing: secondsAgo(10) },
  // Pinged 90 s ago: grace started 30 s ago and lasts 60 s.
  grace: { status: 'up', lastPing: secondsAgo(90) },
  down: { status: 'down', lastPing: secondsAgo(600) },
  new: { status: 'new' },
  paused: { status: 'paused', lastPing: secondsAgo(600) },
  // Started 120 s ago and never finished: past its 60 s grace (docs/checks.md, "Status").
  overrun: { status: 'new', lastStart: secondsAgo(120) },
};

/** Inserts a check whose live status at {@link NOW} is `scenario`. */
export async function checkIn(project: TestProject, scenario: Scenario, fields: Partial<CheckDoc> = {}): Promise<CheckDoc> {
  return buildCheck(project, { timeout: 60, grace: 60, ...SCENARIOS[scenario], ...fields });
}

/** The site-relative paths of a tag's six badges (`*` for all checks). */
export function badgePaths(project: TestProject, tag: string): BadgeUrls {
  const urls = badgeUrls(config.baseUrl, project.project.badgeKey, config.secretKey, tag);
  const strip = (url: string): string => url.slice(config.baseUrl.length);
  return {
    svg: strip(urls.svg),
    svg3: strip(urls.svg3),
    json: strip(urls.json),
    json3: strip(urls.json3),
    shields: strip(urls.shields),
    shields3: strip(urls.shields3),
  };
}
