/**
 * The page's zone switcher: `?tz=utc|mine|check` (or an IANA name) shows a page's times in that zone instead of the profile's, for that page
 * only. `check` is the zone of the page's check (a route sets `res.locals.checkTz`); without one it reads as `mine`.
 */
import type { Request, Response } from 'express';
import { zoneOr } from './times.js';

/** The switcher's choices, as views/zone-switch.eta links them. */
export type ZoneChoice = 'utc' | 'mine' | 'check';

/** What views/zone-switch.eta shows: the chosen link (null for an IANA name in the query), each link's href, and the check's zone. */
export interface ZoneSwitch {
  current: ZoneChoice | null;
  hrefs: Record<ZoneChoice, string>;
  checkTz: string | null;
}

/** `zone` when moment-timezone knows it (zoneOr keeps it), else null. */
function knownZone(zone: string): string | null {
  return zoneOr(zone) === zone ? zone : null;
}

/**
 * The zone the request's times are shown in, and the switcher's state: the `tz` query value when it is `utc`, `mine`, `check` or a known IANA
 * name (an unknown one is ignored), else the profile's zone (UTC until set).
 *
 * @param profileTz - The signed-in user's `tz`, undefined when signed out.
 */
export function zoneOfRequest(req: Request, res: Response, profileTz: string | undefined): { zone: string; switcher: ZoneSwitch } {
  const mine = zoneOr(profileTz);
  const checkTz = typeof res.locals.checkTz === 'string' ? zoneOr(res.locals.checkTz) : null;
  const asked = typeof req.query.tz === 'string' ? req.query.tz : '';
  const chosen: Record<ZoneChoice, string> = { utc: 'UTC', mine, check: checkTz ?? mine };
  const current: ZoneChoice | null = asked in chosen ? (asked as ZoneChoice) : knownZone(asked) ? null : 'mine';
  const zone = current ? chosen[current] : asked;
  const params = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
  const hrefOf = (choice: ZoneChoice): string => {
    params.set('tz', choice);
    return `${req.path}?${params.toString()}`;
  };
  return { zone, switcher: { current, hrefs: { utc: hrefOf('utc'), mine: hrefOf('mine'), check: hrefOf('check') }, checkTz } };
}
