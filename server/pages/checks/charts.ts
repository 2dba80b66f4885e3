/**
 * The check in pictures (docs/web-app.md, "A check's page"): the geometry of the SVG charts drawn by the Eta views
 * (views/check-charts.eta, views/timeline.eta), each with a table or sentence beside it for screen readers.
 * Durations are milliseconds; x and y are SVG user units of a fixed viewBox.
 */
import moment from 'moment-timezone';
import type { Response } from 'express';
import type { CheckDoc } from '../../../shared/models/check.js';
import { runsFromPings, runStats, type Run, type RunStats } from '../../../shared/domain/runs.js';
import { downtimesByMonth, recentMonths, statusPeriods, uptimeIn, type MonthDowntimes, type StatusPeriod, type Uptime } from '../../../shared/domain/uptime.js';
import { flipsSince, newestPings, pingsSince } from './chart-data.js';
import { currentUser } from '../kit/render.js';
import { zoneOr } from '../kit/times.js';
import { checkName } from '../kit/check-name.js';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
/** Runs the duration chart shows. */
export const CHART_RUNS = 100;
/** Newest pings read for them: room for a log ping or two per run. */
const RUN_PINGS = 400;
/** Months of downtimes listed, the present one first. */
const MONTHS = 3;
/** The uptime windows, shortest first. */
const WINDOWS: ReadonlyArray<[string, number]> = [['24 hours', DAY_MS], ['7 days', 7 * DAY_MS], ['30 days', 30 * DAY_MS], ['90 days', 90 * DAY_MS]];
/** Size of the duration chart's viewBox. */
const DURATION_BOX = { width: 600, height: 160 };
/** Size of the timeline's parts: a name column, then 24 hours, one row per check. */
const TIMELINE_BOX = { label: 200, width: 1000, row: 28, axis: 24 };
/** Checks the timeline draws, oldest first. */
export const TIMELINE_CHECKS = 200;

/** A run as a bar of the duration chart. */
export interface RunBar {
  x: number;
  y: number;
  width: number;
  height: number;
  run: Run;
}

/** The run-duration chart: bars oldest to newest, scaled to the longest run. */
export interface DurationChart {
  width: number;
  height: number;
  bars: RunBar[];
  stats: RunStats | null;
}

/** The check page's charts. */
export interface CheckCharts {
  durations: DurationChart;
  uptime: Array<{ label: string } & Uptime>;
  months: MonthDowntimes[];
}

/** Bars for `runs` (at most {@link CHART_RUNS}), oldest left, heights in proportion to the longest run (at least 1 unit so a 0 s run shows). */
function durationChart(runs: readonly Run[]): DurationChart {
  const { width, height } = DURATION_BOX;
  // Room for at least 20 bars, so a few runs do not make a few wide blocks.
  const step = width / Math.max(20, runs.length);
  const longest = Math.max(1, ...runs.map((run) => run.durationMs));
  const bars = runs.map((run, i) => {
    const barHeight = Math.max(1, (run.durationMs / longest) * height);
    return { x: i * step, y: height - barHeight, width: step * 0.8, height: barHeight, run };
  });
  return { width, height, bars, stats: runStats(runs) };
}

/**
 * The charts of one check: its last 100 runs, uptime over 24 hours, 7, 30 and 90 days, and the downtimes of this
 * month and the two before (in the viewer's zone).
 *
 * @param zone - the viewer's IANA zone, already checked.
 */
export async function checkCharts(check: CheckDoc, now: Date, zone: string): Promise<CheckCharts> {
  const months = recentMonths(now, zone, MONTHS);
  const since = new Date(Math.min(now.getTime() - 90 * DAY_MS, months.at(-1)?.start.getTime() ?? now.getTime()));
  const [pings, flips] = await Promise.all([newestPings(check._id, check.nPings, RUN_PINGS), flipsSince([check._id], since)]);
  const periods = statusPeriods(flips, check.status, since, now);
  return {
    durations: durationChart(runsFromPings(pings).slice(-CHART_RUNS)),
    uptime: WINDOWS.map(([label, spanMs]) => ({ label, ...uptimeIn(periods, new Date(now.getTime() - spanMs), now) })),
    months: downtimesByMonth(periods, months),
  };
}

/** The viewer's zone and the request's present (server/pages/kit/times.ts) of a page's response. */
export function viewerOf(res: Response): { zone: string; now: Date } {
  return { zone: zoneOr(currentUser(res)?.tz), now: (res.locals.now as Date | undefined) ?? new Date() };
}

/** {@link checkCharts} for the check page's response: in the viewer's zone, at the request's present. */
export function chartsOfPage(res: Response, check: CheckDoc): Promise<CheckCharts> {
  const { zone, now } = viewerOf(res);
  return checkCharts(check, now, zone);
}

/** A span drawn on a timeline row. */
export interface Span<T> {
  x: number;
  width: number;
  item: T;
}

/** One check on the timeline. */
export interface TimelineRow {
  id: string;
  name: string;
  y: number;
  runs: Array<Span<Run>>;
  downs: Array<Span<StatusPeriod>>;
  /** Milliseconds down in the 24 hours. */
  downMs: number;
}

/** The project timeline of the last 24 hours. */
export interface Timeline {
  from: Date;
  to: Date;
  width: number;
  height: number;
  label: number;
  row: number;
  /** Every 3 hours on the viewer's clock: "15:00". */
  ticks: Array<{ x: number; text: string }>;
  rows: TimelineRow[];
  /** Checks left out past {@link TIMELINE_CHECKS}. */
  more: number;
}

/** `items` grouped by their check. */
function byCheck<T extends { checkId: string }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.checkId);
    if (group) group.push(item);
    else groups.set(item.checkId, [item]);
  }
  return groups;
}

/**
 * The last 24 hours of a project's checks (the first 200, oldest first): each check's runs (start to end, among its
 * newest 400 pings) and down periods, clipped to the window. A run that started up to 72 hours before the window and ended in it is drawn from
 * the window's edge.
 *
 * @param checks - the project's checks, oldest first.
 * @param zone - the viewer's IANA zone, already checked.
 */
export async function projectTimeline(checks: readonly CheckDoc[], now: Date, zone: string): Promise<Timeline> {
  const from = new Date(now.getTime() - DAY_MS);
  const shown = checks.slice(0, TIMELINE_CHECKS);
  const ids = shown.map((check) => check._id);
  const [pings, flips] = await Promise.all([pingsSince(shown, new Date(from.getTime() - 72 * HOUR_MS), RUN_PINGS), flipsSince(ids, from)]);
  const { label, width, row, axis } = TIMELINE_BOX;
  const scale = (width - label) / DAY_MS;
  const span = <T>(start: Date, end: Date, item: T): Span<T> => {
    const x = label + Math.max(0, start.getTime() - from.getTime()) * scale;
    return { x, width: Math.max(2, label + (end.getTime() - from.getTime()) * scale - x), item };
  };
  const pingsOf = byCheck(pings);
  const flipsOf = byCheck(flips);
  const rows = shown.map((check, i) => {
    const runs = runsFromPings(pingsOf.get(check._id) ?? []).filter((run) => run.end >= from);
    const periods = statusPeriods(flipsOf.get(check._id) ?? [], check.status, from, now);
    const downs = periods.filter((p) => p.status === 'down');
    return {
      id: check._id,
      name: checkName(check),
      y: axis + i * row,
      runs: runs.map((run) => span(run.start, run.end, run)),
      downs: downs.map((p) => span(p.from, p.to, p)),
      downMs: uptimeIn(periods, from, now).downMs,
    };
  });
  const firstTick = moment(from).tz(zone).startOf('hour').add(1, 'hour');
  while (firstTick.hour() % 3 !== 0) firstTick.add(1, 'hour');
  const ticks = [];
  // The last label must fit inside the box: none in its last 20 units.
  for (const at = firstTick; label + (at.valueOf() - from.getTime()) * scale < width - 20; at.add(3, 'hours')) ticks.push({ x: label + (at.valueOf() - from.getTime()) * scale, text: at.format('HH:mm') });
  return { from, to: now, width, height: axis + rows.length * row, label, row, ticks, rows, more: checks.length - shown.length };
}
