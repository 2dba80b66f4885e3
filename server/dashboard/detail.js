/**
 * A check's page on the wall display, read only: its status and schedule, its up and down periods over the last
 * 30 days (flips) and its badges. Re-read every POLL_MS milliseconds. A read-only key is refused the ping URLs and
 * the ping log (behaviour.md §1.3 rule 1, §3.2), so the page has neither.
 */
import { ApiError } from './api.js';
import { h, replace, rerenderKeepingFocus } from './dom.js';
import { refreshRelativeTimes, statusLabel, timeLabel } from './list.js';
import { livePoll } from './live.js';
import { ProblemLine } from './problem.js';
import { displayStatus, durationInWords, runDuration, scheduleInWords, tagList } from './format.js';
import { timeline, TIMELINE_SECONDS } from './timeline.js';

/**
 * Renders the check `id` into `main` and keeps it live.
 *
 * @param {HTMLElement} main
 * @param {{api: import('./api.js').Api}} session
 * @param {string} id - The check's unique_key.
 * @returns {() => void} Stops the live updates.
 */
export function renderDetail(main, session, id) {
  const path = `checks/${encodeURIComponent(id)}`;
  /** The JSON each section was last drawn from, by section. */
  const drawn = new Map();

  const heading = h('div', { class: 'detail-head' });
  const facts = h('dl', { class: 'facts' });
  const problem = h('p', { class: 'problem', role: 'alert' });
  const problems = new ProblemLine(problem);
  const badgesSection = h('section', { 'aria-labelledby': 'badges-title' });
  const timelineSection = h('section', { 'aria-labelledby': 'timeline-title' });
  replace(
    main,
    h('p', {}, h('a', { href: '#/' }, '← All checks')),
    heading,
    problem,
    facts,
    timelineSection,
    badgesSection,
  );

  /** Draws a section with `draw(...data)` unless it was last drawn from the same data. */
  function drawOnChange(name, draw, ...data) {
    const json = JSON.stringify(data);
    if (drawn.get(name) === json) return;
    drawn.set(name, json);
    draw(...data);
  }

  function drawHead(check) {
    document.title = `${check.status}: ${check.name || 'unnamed'} · hc-monitor`;
    rerenderKeepingFocus(heading, () => [
      h('h1', {}, check.name || 'unnamed'),
      h('p', {}, statusLabel(check.status)),
      check.desc ? h('p', {}, check.desc) : null,
    ]);
    const now = new Date();
    const rows = [
      ['Schedule', scheduleInWords(check)],
      ['Grace time', durationInWords(check.grace)],
      ['Last ping', timeLabel(check.last_ping, now)],
      ['Next ping expected', timeLabel(check.next_ping, now, 'not expected')],
      ['Pings received', String(check.n_pings)],
      ['Last run took', check.last_duration === undefined ? '—' : runDuration(check.last_duration)],
      ['Tags', tagList(check.tags).join(', ') || '—'],
      ['Slug', check.slug || '—'],
    ];
    replace(facts, ...rows.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
  }

  function drawBadges(check) {
    // The badge's path, on this origin: BASE_URL may name another host than the browser used.
    const svg2 = new URL(check.badge_url).pathname;
    const base = svg2.replace(/\/b\/2\//, '/b/3/').replace(/\.svg$/, '');
    const two = svg2.replace(/\.svg$/, '');
    replace(
      badgesSection,
      h('h2', { id: 'badges-title' }, 'Badges'),
      h(
        'p',
        { class: 'badges' },
        h('img', { src: svg2, alt: `Badge of ${check.name || 'unnamed'}: up or down` }),
        ' ',
        h('img', { src: `${base}.svg`, alt: `Badge of ${check.name || 'unnamed'}: up, late or down` }),
      ),
      h(
        'p',
        {},
        h('a', { href: svg2 }, 'SVG'), ' · ', h('a', { href: `${two}.json` }, 'JSON'), ' · ',
        h('a', { href: `${two}.shields` }, 'Shields.io'), ' (three states: ',
        h('a', { href: `${base}.svg` }, 'SVG'), ', ', h('a', { href: `${base}.json` }, 'JSON'), ', ',
        h('a', { href: `${base}.shields` }, 'Shields.io'), ')',
      ),
    );
  }

  function drawTimeline(check, flips) {
    replace(timelineSection, h('h2', { id: 'timeline-title' }, 'Last 30 days'), timeline(flips, check.status, new Date(), null));
  }

  async function refresh(current) {
    try {
      const [json, flips] = await Promise.all([session.api.get(path), session.api.get(`${path}/flips/?seconds=${TIMELINE_SECONDS}`)]);
      const check = { ...json, status: displayStatus(json) };
      if (!current()) return;
      problems.poll = '';
      drawOnChange('head', drawHead, check);
      drawOnChange('badges', drawBadges, { name: check.name, badge_url: check.badge_url });
      // The timeline moves with the clock: redrawn when the data changes or once a minute.
      drawOnChange('timeline', drawTimeline, { status: check.status }, flips, Math.floor(Date.now() / 60_000));
      refreshRelativeTimes(main);
    } catch (err) {
      if (!current()) return;
      problems.poll = err instanceof ApiError && err.status === 404 ? 'No such check in this project.' : `Not up to date: ${err.message}`;
    }
    problems.show();
  }

  const live = livePoll(refresh);
  return live.stop;
}
