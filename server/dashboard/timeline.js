/**
 * The picture of a check's up and down periods over the last 30 days, drawn
 * from its flips (`GET checks/<id>/flips/?seconds=…`), with the same periods
 * as a text list for screen readers and for exact times.
 */
import { h, svg } from './dom.js';
import { exactTime, flipPeriods, periodShares } from './format.js';

/** The window shown, seconds: 30 days. */
export const TIMELINE_SECONDS = 30 * 86400;

const WIDTH = 720;
const HEIGHT = 28;
const DAY_MS = 86400 * 1000;
/** Viewbox units: even a period of seconds stays visible. */
const MIN_WIDTH = 4;

/**
 * The timeline figure.
 *
 * @param {Array<{timestamp: string, up: number}>} flips - Flip JSON of the window.
 * @param {string} status - The check's current status.
 * @param {Date} now
 * @param {Date | null} monitoredSince - When the check's ping number 1 arrived, if known.
 * @returns {HTMLElement} A `<figure>`.
 */
export function timeline(flips, status, now, monitoredSince) {
  const periods = flipPeriods(flips, status, now, TIMELINE_SECONDS, monitoredSince);
  const start = now.getTime() - TIMELINE_SECONDS * 1000;
  const x = (date) => ((date.getTime() - start) / (TIMELINE_SECONDS * 1000)) * WIDTH;
  const shares = periodShares(periods);
  const summary = `Up ${shares.up}%, down ${shares.down}%, not monitored ${shares.unknown}% of the last 30 days; ${flips.length} ${flips.length === 1 ? 'flip' : 'flips'}.`;
  const ticks = [30, 20, 10, 0].map((daysAgo) => ({ daysAgo, at: x(new Date(now.getTime() - daysAgo * DAY_MS)) }));
  const picture = svg(
    'svg',
    { viewBox: `0 0 ${WIDTH} ${HEIGHT + 16}`, class: 'timeline', role: 'img', 'aria-label': summary },
    ...periods.map((p) =>
      svg(
        'rect',
        {
          x: Math.min(x(p.from), WIDTH - MIN_WIDTH),
          y: 0,
          width: Math.max(x(p.to) - x(p.from), MIN_WIDTH),
          height: HEIGHT,
          class: `period-${p.state}`,
        },
        svg('title', {}, `${p.state}: ${exactTime(p.from.toISOString())} to ${exactTime(p.to.toISOString())}`),
      ),
    ),
    ...ticks.map(({ daysAgo, at }) =>
      svg(
        'text',
        { x: Math.min(Math.max(at, 0), WIDTH), y: HEIGHT + 13, 'text-anchor': daysAgo === 30 ? 'start' : daysAgo === 0 ? 'end' : 'middle' },
        daysAgo === 0 ? 'now' : `${daysAgo} days ago`,
      ),
    ),
  );
  const changes = periods.filter((p) => p.state !== 'unknown');
  return h(
    'figure',
    { class: 'timeline-figure' },
    picture,
    h('figcaption', {}, summary),
    h(
      'details',
      {},
      h('summary', {}, 'Periods'),
      h(
        'ul',
        { class: 'periods' },
        ...(changes.length === 0 ? [h('li', {}, 'Not monitored in this window.')] : changes).map((p) =>
          p instanceof Node ? p : h('li', {}, `${p.state} from ${exactTime(p.from.toISOString())} to ${exactTime(p.to.toISOString())}`),
        ),
      ),
    ),
  );
}
