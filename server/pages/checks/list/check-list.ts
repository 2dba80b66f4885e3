/**
 * A project's checks list (docs/web-app.md, "The checks list"): search, tag and status filters, sorts and pages kept in
 * the URL (list-query.ts), the sort remembered per project in the session, the project's tags as chips coloured by
 * their worst status, per-row pause and integration toggles, and checks.json for the live poll (only the rows shown,
 * with an ETag: 304 when nothing changed).
 *
 * The page is a few database queries (list-find.ts): its rows, the status counts and the tag chips at the request's
 * moment (docs/checks.md, "Status"); writes go through the API's services (server/services/checks.ts), so the check store
 * makes every state change.
 */
import { Router, type Request, type Response } from 'express';
import { Check, type CheckDoc } from '../../../../shared/models/check.js';
import { Channel, type ChannelDoc } from '../../../../shared/models/channel.js';
import { AppError } from '../../../../shared/errors.js';
import { CAN } from '../../../../shared/services/members.js';
import { UUID_RE } from '../../../../shared/domain/ids.js';
import type { AppDeps } from '../../../deps.js';
import * as checks from '../../../services/checks.js';
import { accessOf, projectAccess } from '../../kit/guard.js';
import { render } from '../../kit/render.js';
import { shortDuration } from '../../kit/times.js';
import { fieldOf } from '../../kit/forms.js';
import { LIST_SORTS, LIST_STATUSES, listSearch, parseListQuery, PER_PAGE, shownStatusOf, type ListSort } from './list-query.js';
import { listPage, ROW_FIELDS, rowsOf, type Row, type RowDoc } from './list-find.js';
import { downCountOf, sendLive } from '../../kit/glance.js';
import { checkFilterOf, checkSegment } from '../../kit/wall-checks.js';
import { slugPingUrl, uuidPingUrl } from './ping-urls.js';
import { kindIconOf } from '../../kit/kind-icons.js';

declare module 'express-session' {
  interface SessionData {
    /** The checks list's sort last chosen, by project id. */
    listSorts?: Record<string, ListSort>;
  }
}

const UNITS: Array<[string, number]> = [['d', 86_400_000], ['h', 3_600_000], ['min', 60_000], ['s', 1000]];

/** `at` as a list cell says it, relative to `now` and short enough never to wrap: "just now", "2 min ago", "in 3 h". */
export function compactAgo(at: Date, now: Date): string {
  const diff = now.getTime() - at.getTime();
  if (Math.abs(diff) < 10_000) return 'just now';
  const [unit, size] = UNITS.find(([, ms]) => Math.abs(diff) >= ms) ?? UNITS[3];
  const n = Math.floor(Math.abs(diff) / size);
  return diff > 0 ? `${n} ${unit} ago` : `in ${n} ${unit}`;
}
import { checkName } from '../../kit/check-name.js';

/** Most rows one checks.json asks for (a page's). */
const MAX_LIVE_IDS = PER_PAGE;

/**
 * What checks.json says of a row, named by `id` (its UUID, or its `unique_key` for a wall: wall-checks.ts): only fields
 * that change with pings, none with the clock, so its ETag is stable; `last_duration` as the row shows it.
 */
function liveOf(row: Row, id: string): Record<string, unknown> {
  return { id, status: shownStatusOf(row), running: row.running, last_ping: row.lastPing?.toISOString() ?? null, last_duration_ms: row.lastDurationMs, last_duration: row.lastDurationMs ? shortDuration(row.lastDurationMs) : '' };
}

/** The list URL to come back to: the `back` field (the list's `?…` query) when it parses, else the plain list. */
function backTo(req: Request, projectId: string): string {
  const back = new URLSearchParams(fieldOf(req, 'back'));
  const fields = { q: back.get('q') ?? undefined, tag: back.getAll('tag'), status: back.getAll('status'), sort: back.get('sort') ?? undefined, page: back.get('page') ?? undefined, urls: back.get('urls') ?? undefined };
  try {
    return `/projects/${projectId}/${listSearch(parseListQuery(fields))}`;
  } catch {
    return `/projects/${projectId}/`;
  }
}

/** The path's check in the request's project. @throws AppError(404) `no such check` otherwise. */
async function checkOf(req: Request, res: Response): Promise<CheckDoc> {
  const id = String(req.params.checkId);
  const check = UUID_RE.test(id) ? await Check.findOne({ _id: id, projectId: accessOf(res).project._id }).lean<CheckDoc>() : null;
  if (!check) throw new AppError(404, 'no such check: it may have been deleted');
  return check;
}

/** Whether the request came from the list's script (it asks for JSON) rather than a plain form post. */
const fromScript = (req: Request): boolean => req.get('accept')?.includes('application/json') === true;

/** Routes of the checks list. */
export function checkListRouter(deps: AppDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });

  router.get('/projects/:projectId/', projectAccess('read'), async (req, res) => {
    const { project, role } = accessOf(res);
    const query = parseListQuery(req.query);
    // The sort is kept per project: a list URL without one shows the last chosen, in its own URL.
    const sorts = req.session.listSorts ?? {};
    const remembered = sorts[project._id];
    if (req.query.sort === undefined && remembered && remembered !== query.sort) {
      return void res.redirect(303, `/projects/${project._id}/${listSearch({ ...query, sort: remembered })}`);
    }
    if (req.query.sort !== undefined && remembered !== query.sort && !res.locals.wall) req.session.listSorts = { ...sorts, [project._id]: query.sort };
    const now = deps.clock();
    let view = await listPage(project._id, query, now);
    const pages = Math.max(1, Math.ceil(view.matched / PER_PAGE));
    // A page past the end (the list shrank, or a typed number) shows the last page.
    if (query.page > pages) {
      query.page = pages;
      view = await listPage(project._id, query, now);
    }
    const { rows, total, matched, counts, chips } = view;
    const channels = (await Channel.find({ projectId: project._id }, { _id: 1, name: 1, kind: 1 }).sort({ created: 1 }).lean<ChannelDoc[]>()).map((ch) => ({ ...ch, icon: kindIconOf(ch.kind) }));
    render(req, res, 'checks', {
      title: project.name, tab: 'checks', project, role, can: CAN, rows, total, matched,
      first: (query.page - 1) * PER_PAGE + 1, pages, query, counts, chips, channels,
      statuses: LIST_STATUSES, sorts: LIST_SORTS, search: (change: object) => listSearch(query, change),
      pingUrl: uuidPingUrl, slugPingUrl: (slug: string) => slugPingUrl(project.pingKey, slug),
      pingBase: uuidPingUrl(''), pingHost: uuidPingUrl('').slice(0, -'/ping/'.length), pingKey: project.pingKey ?? '',
      ago: (at: Date) => compactAgo(at, now), address: (row: Row) => checkSegment(res, row), down: counts.down,
    });
  });

  router.get('/projects/:projectId/checks.json', projectAccess('read'), async (req, res) => {
    const { project } = accessOf(res);
    const ids = (typeof req.query.ids === 'string' ? req.query.ids : '').split(',').slice(0, MAX_LIVE_IDS);
    const docs = ids[0] ? await Check.find({ ...checkFilterOf(res, ids), projectId: project._id }, ROW_FIELDS).lean<RowDoc[]>() : [];
    const down = await downCountOf(project._id, deps.clock());
    sendLive(req, res, { down, checks: rowsOf(docs, deps.clock()).map((row) => liveOf(row, checkSegment(res, row))) });
  });

  router.post('/projects/:projectId/list/:checkId/pause', projectAccess('write'), async (req, res) => {
    const check = await checks.pauseCheck(deps, await checkOf(req, res));
    if (fromScript(req)) return void res.json({ status: 'paused' });
    req.session.notice = `Check “${checkName(check)}” paused.`;
    res.redirect(303, backTo(req, check.projectId));
  });

  router.post('/projects/:projectId/list/:checkId/channels/:channelId', projectAccess('write'), async (req, res) => {
    const check = await checkOf(req, res);
    const channelId = String(req.params.channelId);
    const on = fieldOf(req, 'on') === '1';
    const others = check.channels.filter((id) => id !== channelId);
    // The service refuses a channel of another project (400), as the editor's save does.
    const saved = await checks.updateCheck(deps, check, { input: { channels: (on ? [...others, channelId] : others).join(',') }, version: 3 });
    if (fromScript(req)) return void res.json({ on: saved.channels.includes(channelId) });
    res.redirect(303, backTo(req, check.projectId));
  });
  return router;
}
