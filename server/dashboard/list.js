/**
 * The checks list: status with colour and a legend, name, tags (click to
 * filter), last and next ping, schedule in words, search and sort; read only. It re-reads `GET /api/v3/checks/` every
 * POLL_MS milliseconds (live.js) and redraws the table only when something changed (the
 * relative times are updated in place), so focus and selection stay put; the
 * page title counts the project's down checks.
 */
import { h, refreshTimes, replace, rerenderKeepingFocus } from './dom.js';
import {
  displayStatus,
  STATUS_MEANING,
  STATUS_ORDER,
  exactTime,
  matchesFilters,
  relativeTime,
  scheduleInWords,
  sortChecks,
  tagList,
} from './format.js';
import { ProblemLine } from './problem.js';
import { livePoll } from './live.js';

/** Filters survive going to a check and back. */
const filters = { tags: [], search: '', sort: 'status' };

/**
 * A status shown as a coloured dot and its name (the colour is never the only cue).
 *
 * @param {string} status
 * @returns {HTMLElement}
 */
export function statusLabel(status) {
  return h('span', { class: `status status-${status}` }, h('span', { class: 'dot', 'aria-hidden': 'true' }), status);
}

/**
 * A moment as relative words with the exact UTC time on hover, or `none` for null.
 *
 * @param {string | null} iso
 * @param {Date} now
 * @param {string} [none]
 */
export function timeLabel(iso, now, none = 'never') {
  if (iso === null) return h('span', { class: 'muted' }, none);
  return h('time', { datetime: iso, title: exactTime(iso) }, relativeTime(iso, now));
}

/**
 * Updates the relative times under `root` to the current moment.
 *
 * @param {ParentNode} root
 */
export function refreshRelativeTimes(root) {
  const now = new Date();
  refreshTimes(root, (iso) => relativeTime(iso, now));
}

/** What each status means, as text (not only on hover). */
function legendDetails() {
  return h(
    'details',
    { class: 'meanings' },
    h('summary', {}, 'What the statuses mean'),
    h('dl', {}, ...STATUS_ORDER.flatMap((status) => [h('dt', {}, statusLabel(status)), h('dd', {}, STATUS_MEANING[status])])),
  );
}

/**
 * Renders the list into `main` and keeps it live.
 *
 * @param {HTMLElement} main
 * @param {{api: import('./api.js').Api}} session
 * @returns {() => void} Stops the live updates.
 */
export function renderList(main, session) {
  let checks = null;
  let shownJson = '';

  const search = h('input', { id: 'search', type: 'search', value: filters.search, 'aria-controls': 'checks' });
  search.addEventListener('input', () => ((filters.search = search.value), draw()));
  const sort = h(
    'select',
    { id: 'sort', 'aria-controls': 'checks' },
    ...[
      ['status', 'status (down first)'],
      ['name', 'name'],
      ['last_ping', 'last ping'],
    ].map(([value, label]) => h('option', { value, selected: value === filters.sort }, label)),
  );
  sort.addEventListener('change', () => ((filters.sort = sort.value), draw()));
  const legend = h('ul', { class: 'legend', 'aria-label': 'Checks per status' });
  const tagFilter = h('p', { class: 'tag-filter' });
  const problem = h('p', { class: 'problem', role: 'alert' });
  const problems = new ProblemLine(problem);
  const table = h('div', { id: 'checks', class: 'table-wrap' });
  const summary = h('p', { id: 'summary', class: 'muted' });

  replace(
    main,
    h('h1', {}, 'Checks'),
    h(
      'div',
      { class: 'toolbar' },
      h('label', { for: 'search' }, 'Search'),
      search,
      h('label', { for: 'sort' }, 'Sort by'),
      sort,
    ),
    legend,
    legendDetails(),
    tagFilter,
    problem,
    summary,
    table,
  );


  function toggleTag(tag) {
    filters.tags = filters.tags.includes(tag) ? filters.tags.filter((t) => t !== tag) : [...filters.tags, tag];
    draw();
  }

  function tagButton(tag, focusKey) {
    return h(
      'button',
      {
        type: 'button',
        class: 'tag',
        'aria-pressed': String(filters.tags.includes(tag)),
        'aria-label': `Filter by tag ${tag}`,
        'data-focus': focusKey,
        onclick: () => toggleTag(tag),
      },
      tag,
    );
  }

  function row(check, now) {
    // A read-only key's checks carry unique_key, never the UUID (behaviour.md §1.3 rule 1).
    const id = check.unique_key;
    return h(
      'tr',
      { 'data-check': id, 'data-status': check.status },
      h('td', {}, statusLabel(check.status)),
      h(
        'td',
        {},
        h('a', { href: `#/checks/${encodeURIComponent(id)}`, 'data-focus': `name:${id}` }, check.name || 'unnamed'),
        check.desc ? h('div', { class: 'muted small' }, check.desc) : null,
      ),
      h('td', {}, ...tagList(check.tags).map((tag) => tagButton(tag, `tag:${id}:${tag}`))),
      h('td', {}, timeLabel(check.last_ping, now)),
      h('td', {}, timeLabel(check.next_ping, now, '—')),
      h('td', {}, scheduleInWords(check)),
    );
  }

  /** Redraws everything from `checks` and the filters. */
  function draw() {
    if (live.stopped() || checks === null) return;
    const now = new Date();
    const down = checks.filter((c) => c.status === 'down').length;
    document.title = `${down > 0 ? `${down} down · ` : ''}Checks · hc-monitor`;
    replace(
      legend,
      ...STATUS_ORDER.map((status) => h('li', {}, statusLabel(status), ` ${checks.filter((c) => c.status === status).length}`)),
    );
    rerenderKeepingFocus(tagFilter, () =>
      filters.tags.length === 0
        ? []
        : [
            'Showing checks tagged ',
            ...filters.tags.map((tag) => tagButton(tag, `filter:${tag}`)),
            ' ',
            h('button', { type: 'button', 'data-focus': 'filter-clear', onclick: () => ((filters.tags = []), draw()) }, 'Show all'),
          ],
    );
    problems.show();
    const shown = sortChecks(
      checks.filter((c) => matchesFilters(c, filters.tags, filters.search)),
      filters.sort,
    );
    summary.textContent = `${shown.length} of ${checks.length} checks`;
    rerenderKeepingFocus(table, () => [
      h(
        'table',
        {},
        h('caption', { class: 'visually-hidden' }, 'Checks'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['Status', 'Name', 'Tags', 'Last ping', 'Next ping', 'Schedule'].map((name) => h('th', { scope: 'col' }, name)),
          ),
        ),
        h('tbody', {}, ...shown.map((check) => row(check, now))),
      ),
      shown.length === 0 ? h('p', { class: 'muted' }, checks.length === 0 ? 'This project has no checks yet.' : 'No check matches.') : null,
    ]);
  }

  async function refresh(current) {
    try {
      const json = JSON.stringify((await session.api.get('checks/')).checks);
      if (!current()) return;
      problems.poll = '';
      if (json !== shownJson) {
        shownJson = json;
        checks = JSON.parse(json).map((check) => ({ ...check, status: displayStatus(check) }));
        draw();
      } else {
        problems.show();
        refreshRelativeTimes(table);
      }
    } catch (err) {
      if (!current()) return;
      problems.poll = `Not up to date: ${err.message}`;
      problems.show();
    }
  }

  const live = livePoll(refresh);
  return live.stop;
}
