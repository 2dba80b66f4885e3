/**
 * A check's own pages (docs/web-app.md, "A check's page"): the check page (facts, its state in words, its events,
 * notifications, ping URL and usage examples), the full log, one ping's details and its body, and the events the page's
 * script polls for (static/events.js). Read-only: state changes stay with checks.ts and the API's services.
 */
import { Router, type Request, type Response } from 'express';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { Channel, type ChannelDoc } from '../../../shared/models/channel.js';
import { Flip, type FlipDoc } from '../../../shared/models/flip.js';
import { CAN } from '../../../shared/services/members.js';
import type { AppDeps } from '../../deps.js';
import { presentCheck } from '../../presenters/check.js';
import { listNotifications } from '../../services/notifications.js';
import { presentNotification } from '../../presenters/notification.js';
import { accessOf, projectAccess } from '../kit/guard.js';
import { render, renderFragment, timesOf } from '../kit/render.js';
import { chartsOfPage } from './charts.js';
import { usageExamples } from './usage.js';
import { checkOfPath } from './checks.js';
import { eventsSince, loadEvents } from './check-events.js';
import { EVENT_FILTERS, parseEventsQuery, parseLiveCursor, type EventsQuery } from './events-query.js';
import type { EventRow } from './event-rows.js';
import { checkState } from './check-state.js';
import { findPing, pingDetails } from './ping-details.js';
import { bytesOf } from './ping-text.js';
import { checkSegment } from '../kit/wall-checks.js';
import type { EventsPartView } from './views.js';
import { checkName } from '../kit/check-name.js';

const ONE = '/projects/:projectId/checks/:checkId/';
/** Notifications a check's page lists, newest first. */
const LOGGED_ON_PAGE = 20;
/** Flips the check page lists, newest first. */
const RECENT_FLIPS = 10;
/** Pings an events page shows on the check page, and on the log page. */
const PAGE_PINGS = 50;
const LOG_PINGS = 100;

/** `/projects/<p>/checks/<c>/`, `<c>` the check's UUID (its `unique_key` for a wall display: wall-checks.ts). */
const pathOf = (res: Response, check: CheckDoc) => `/projects/${check.projectId}/checks/${checkSegment(res, check)}/`;

/** The live script's starting cursor: past the newest ping and the newest flip or notification the page shows. */
function cursorOf(check: CheckDoc, rows: EventRow[]): string {
  const since = rows.reduce((n, row) => (row.type === 'ping' && row.n > n ? row.n : n), check.nPings);
  const others = rows.filter((row) => row.type !== 'ping');
  const after = (others.length ? others : rows.slice(-1)).reduce((ms, row) => Math.max(ms, row.at.getTime()), 0);
  return `since=${since}&after=${after}`;
}

/** What the events partial (views/check-events.eta) needs, for the page at `eventsPath`. */
async function eventsView(res: Response, check: CheckDoc, pingLogLimit: number, query: EventsQuery, size: number, eventsPath: string): Promise<Omit<EventsPartView, 'eventsHeading' | 'logLink'>> {
  const { rows, older } = await loadEvents(check, pingLogLimit, query, size);
  const newest = query.kind === null && query.before === null;
  const live = newest ? `${pathOf(res, check)}events?${cursorOf(check, rows)}` : null;
  return { rows, older, query, live, filters: EVENT_FILTERS, eventsPath, checkPath: pathOf(res, check) };
}

/** Routes of a check's page, log, ping details and live events. */
export function checkPageRouter(deps: AppDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });

  router.get(ONE, projectAccess('read'), async (req: Request, res: Response) => {
    const { project, role } = accessOf(res);
    const check = await checkOfPath(req, res);
    const query = parseEventsQuery(req.query);
    const json = presentCheck(check, { readOnly: !CAN.write(role), now: deps.clock(), version: 3 });
    const channels = await Channel.find({ _id: { $in: check.channels } }).lean<ChannelDoc[]>();
    const examples = json.ping_url ? usageExamples(json.ping_url) : [];
    const notifications = (await listNotifications(check._id)).slice(0, LOGGED_ON_PAGE).map(presentNotification);
    const parents = check.dependsOn?.length ? await Check.find({ _id: { $in: check.dependsOn } }, { name: 1 }).lean<CheckDoc[]>() : [];
    const flips = await Flip.find({ checkId: check._id }).sort({ created: -1 }).limit(RECENT_FLIPS).lean<FlipDoc[]>();
    const events = await eventsView(res, check, project.pingLogLimit, query, PAGE_PINGS, pathOf(res, check));
    const state = await checkState(check, timesOf(req, res));
    const charts = await chartsOfPage(res, check);
    const data = { project, role, can: CAN, check, json, channels, examples, notifications, parents, flips, state, charts };
    render(req, res, 'check', { title: checkName(check), tab: 'checks', ...data, ...events, eventsHeading: 'Events', logLink: true });
  });

  router.get(`${ONE}log/`, projectAccess('read'), async (req, res) => {
    const { project, role } = accessOf(res);
    const check = await checkOfPath(req, res);
    res.locals.checkTz = check.tz;
    const events = await eventsView(res, check, project.pingLogLimit, parseEventsQuery(req.query), LOG_PINGS, `${pathOf(res, check)}log/`);
    const title = `Log of ${checkName(check)}`;
    render(req, res, 'check-log', { title, tab: 'checks', project, role, check, size: LOG_PINGS, ...events, eventsHeading: 'Events', logLink: false });
  });

  router.get(`${ONE}events`, projectAccess('read'), async (req, res) => {
    const { project } = accessOf(res);
    const check = await checkOfPath(req, res);
    res.locals.checkTz = check.tz;
    const { rows, cursor } = await eventsSince(check, project.pingLogLimit, parseLiveCursor(req.query), PAGE_PINGS);
    const html = rows.length ? renderFragment(req, res, 'check-event-rows', { rows, checkPath: pathOf(res, check) }) : '';
    const times = timesOf(req, res);
    const state = await checkState(check, times);
    // The page's facts that pings change, as the page shows them.
    const facts = { last_ping: check.lastPing ? times.exact(check.lastPing) : 'never', n_pings: String(check.nPings) };
    res.set('Cache-Control', 'no-store').json({ html, next: `since=${cursor.since}&after=${cursor.after.getTime()}`, status: state.status, state: state.words, facts });
  });

  router.get(`${ONE}pings/:n/`, projectAccess('read'), async (req, res) => {
    const { project, role } = accessOf(res);
    const check = await checkOfPath(req, res);
    res.locals.checkTz = check.tz;
    const details = await pingDetails(await findPing(check, project.pingLogLimit, String(req.params.n)));
    const title = `Ping #${details.ping.n} of ${checkName(check)}`;
    render(req, res, 'ping', { title, tab: 'checks', project, role, check, details, checkPath: pathOf(res, check) });
  });

  router.get(`${ONE}pings/:n/body`, projectAccess('read'), async (req, res) => {
    const { project } = accessOf(res);
    const check = await checkOfPath(req, res);
    const ping = await findPing(check, project.pingLogLimit, String(req.params.n));
    const body = bytesOf(ping.body);
    const name = `ping-${ping.n}.${ping.scheme === 'email' ? 'eml' : 'bin'}`;
    res.status(200).set({ 'Content-Disposition': `attachment; filename="${name}"`, 'Content-Type': 'application/octet-stream', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' });
    res.end(body);
  });
  return router;
}
