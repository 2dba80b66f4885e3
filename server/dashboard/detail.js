/**
 * A check's page: its status and schedule, pause / resume (read-write key),
 * its up and down periods over the last 30 days (flips), the ping log with
 * bodies, its ping URLs with copy buttons and a curl snippet, its badges, and
 * the edit form (read-write key). Re-read every POLL_MS milliseconds, except the edit form,
 * which keeps what the user is typing.
 */
import { ApiError } from './api.js';
import { copyText, h, replace, rerenderKeepingFocus } from './dom.js';
import { refreshRelativeTimes, statusLabel, timeLabel } from './list.js';
import { livePoll } from './live.js';
import { pauseButton, ProblemLine } from './actions.js';
import {
  curlSnippet,
  displayStatus,
  durationInWords,
  fieldOfError,
  pingTypeInWords,
  pingUrls,
  runDuration,
  scheduleInWords,
  tagList,
} from './format.js';
import { timeline, TIMELINE_SECONDS } from './timeline.js';

/** Bodies shown inline for the newest pings that have one. */
const PREVIEWED_BODIES = 10;
/** Characters of a body shown inline. */
const PREVIEW_CHARS = 300;

/**
 * Renders the check `id` into `main` and keeps it live.
 *
 * @param {HTMLElement} main
 * @param {{api: import('./api.js').Api, access: string}} session
 * @param {string} id - UUID (read-write key) or unique_key (read-only key).
 * @returns {() => void} Stops the live updates.
 */
export function renderDetail(main, session, id) {
  const writable = session.access === 'read-write';
  const path = `checks/${encodeURIComponent(id)}`;
  const bodies = new Map();
  /** The JSON each section was last drawn from, by section. */
  const drawn = new Map();
  let formShown = false;

  const heading = h('div', { class: 'detail-head' });
  const facts = h('dl', { class: 'facts' });
  const problem = h('p', { class: 'problem', role: 'alert' });
  const problems = new ProblemLine(problem);
  const editSection = h('section', { 'aria-labelledby': 'edit-title' });
  const urlsSection = h('section', { 'aria-labelledby': 'urls-title' });
  const badgesSection = h('section', { 'aria-labelledby': 'badges-title' });
  const timelineSection = h('section', { 'aria-labelledby': 'timeline-title' });
  const logSection = h('section', { 'aria-labelledby': 'log-title' });
  const formStatus = h('p', { class: 'form-status', role: 'status' });
  const announcer = h('p', { class: 'visually-hidden', role: 'status' });
  const announce = (message) => (announcer.textContent = message);
  replace(
    main,
    h('p', {}, h('a', { href: '#/' }, '← All checks')),
    heading,
    problem,
    facts,
    timelineSection,
    logSection,
    urlsSection,
    badgesSection,
    writable ? editSection : null,
    announcer,
  );

  /** Draws a section with `draw(...data)` unless it was last drawn from the same data. */
  function drawOnChange(name, draw, ...data) {
    const json = JSON.stringify(data);
    if (drawn.get(name) === json) return;
    drawn.set(name, json);
    draw(...data);
  }


  const act = (request) => problems.act(request, live.now);

  function drawHead(check) {
    document.title = `${check.status}: ${check.name || 'unnamed'} · hc-monitor`;
    rerenderKeepingFocus(heading, () => [
      h('h1', {}, check.name || 'unnamed'),
      h('p', {}, statusLabel(check.status), ' ', writable ? pauseButton(session.api, check, 'pause', act) : null),
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

  function drawUrls(check) {
    const title = h('h2', { id: 'urls-title' }, 'Ping URLs');
    if (!check.ping_url) {
      replace(urlsSection, title, h('p', { class: 'muted' }, 'Ping URLs are shown with the read-write API key.'));
      return;
    }
    const copyButton = (label, text) =>
      h(
        'button',
        { type: 'button', class: 'copy', 'data-focus': `copy:${label}`, onclick: (e) => copyText(e.currentTarget, text, announce) },
        'Copy',
        h('span', { class: 'visually-hidden' }, ` ${label}`),
      );
    replace(
      urlsSection,
      title,
      h(
        'table',
        { class: 'urls' },
        h('tbody', {}, ...pingUrls(check.ping_url).map(({ label, url }) =>
          h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, h('code', {}, url)), h('td', {}, copyButton(`${label} URL`, url))),
        )),
      ),
      h('p', {}, 'Add this to the end of the job, for example in its crontab line:'),
      h('pre', { class: 'snippet' }, h('code', {}, curlSnippet(check.ping_url))),
      copyButton('curl command', curlSnippet(check.ping_url)),
    );
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

  function drawTimeline(check, flips, pings) {
    const first = pings?.find((ping) => ping.n === 1);
    replace(
      timelineSection,
      h('h2', { id: 'timeline-title' }, 'Last 30 days'),
      timeline(flips, check.status, new Date(), first ? new Date(first.date) : null),
    );
  }

  function drawLog(check, pings) {
    const title = h('h2', { id: 'log-title' }, 'Ping log');
    if (pings === null) {
      replace(logSection, title, h('p', { class: 'muted' }, 'The ping log is shown with the read-write API key.'));
      return;
    }
    if (pings.length === 0) {
      replace(logSection, title, h('p', { class: 'muted' }, 'No pings yet.'));
      return;
    }
    const now = new Date();
    const bodyCell = (ping) => {
      if (!ping.body_url) return h('td', { class: 'muted' }, '—');
      const text = bodies.get(ping.n);
      const link = h(
        'a',
        { href: `#/checks/${encodeURIComponent(check.uuid)}/pings/${ping.n}`, 'aria-label': `Full body of ping #${ping.n}`, 'data-focus': `body:${ping.n}` },
        'full body',
      );
      if (text === undefined) return h('td', {}, link);
      return h(
        'td',
        {},
        h('pre', { class: 'body-preview' }, text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text),
        link,
      );
    };
    rerenderKeepingFocus(logSection, () => [
      title,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'pings' },
          h('thead', {}, h('tr', {}, ...['#', 'Type', 'Time', 'Duration', 'Source', 'User agent', 'Body'].map((name) => h('th', { scope: 'col' }, name)))),
          h(
            'tbody',
            {},
            ...pings.map((ping) =>
              h(
                'tr',
                { 'data-n': ping.n, 'data-type': ping.type },
                h('td', {}, String(ping.n)),
                h('td', {}, h('span', { class: `ping-type ping-${ping.type}` }, pingTypeInWords(ping))),
                h('td', {}, timeLabel(ping.date, now)),
                h('td', {}, ping.duration === undefined ? '—' : runDuration(ping.duration)),
                h('td', {}, [ping.scheme, ping.method, ping.remote_addr].filter(Boolean).join(' ')),
                h('td', { class: 'ua' }, ping.ua || '—'),
                bodyCell(ping),
              ),
            ),
          ),
        ),
      ),
    ]);
  }

  function drawForm(check) {
    formShown = true;
    const simple = check.schedule === undefined;
    const fields = [
      { name: 'name', label: 'Name', value: check.name },
      { name: 'tags', label: 'Tags', value: check.tags, help: 'Separated by spaces.' },
      { name: 'desc', label: 'Description', value: check.desc, multiline: true },
      ...(simple
        ? [{ name: 'timeout', label: 'Period (seconds)', value: check.timeout, numeric: true, help: 'How often the job runs: 60 to 31,536,000.' }]
        : [
            { name: 'schedule', label: 'Cron schedule', value: check.schedule, help: 'Five fields, for example 0 3 * * *.' },
            { name: 'tz', label: 'Time zone', value: check.tz, help: 'An IANA name, for example Europe/Riga.' },
          ]),
      { name: 'grace', label: 'Grace time (seconds)', value: check.grace, numeric: true, help: 'How late a ping may be before the check goes down: 60 to 31,536,000.' },
    ];
    const inputs = new Map();
    const errors = new Map();
    const formError = h('p', { class: 'field-error', role: 'alert' });
    const form = h(
      'form',
      { class: 'edit', novalidate: true },
      h('h2', { id: 'edit-title' }, 'Settings'),
      ...fields.map((field) => {
        const inputId = `field-${field.name}`;
        const attrs = { id: inputId, name: field.name, 'aria-describedby': `${inputId}-help ${inputId}-error` };
        const input = field.multiline
          ? h('textarea', { ...attrs, rows: 2 }, String(field.value ?? ''))
          : h('input', { ...attrs, type: 'text', inputmode: field.numeric ? 'numeric' : null, value: String(field.value ?? '') });
        const error = h('p', { id: `${inputId}-error`, class: 'field-error' });
        inputs.set(field.name, { input, numeric: field.numeric });
        errors.set(field.name, error);
        return h(
          'div',
          { class: 'field' },
          h('label', { for: inputId }, field.label),
          input,
          h('p', { id: `${inputId}-help`, class: 'help' }, field.help ?? ''),
          error,
        );
      }),
      formError,
      h('button', { type: 'submit' }, 'Save'),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      for (const [name, error] of errors) {
        error.textContent = '';
        inputs.get(name).input.removeAttribute('aria-invalid');
      }
      formError.textContent = formStatus.textContent = '';
      const body = {};
      for (const [name, { input, numeric }] of inputs) {
        // Whole numbers go as numbers; anything else as typed, for the API to judge (it does not convert strings).
        body[name] = numeric && /^\d+$/.test(input.value.trim()) ? Number(input.value.trim()) : input.value;
      }
      try {
        const saved = await session.api.post(`checks/${check.uuid}`, body);
        drawForm(saved);
        editSection.querySelector('button[type=submit]').focus();
        formStatus.textContent = 'Saved.';
        await live.now();
      } catch (err) {
        const field = err instanceof ApiError && err.status === 400 ? fieldOfError(err.message) : undefined;
        if (field && errors.has(field)) {
          errors.get(field).textContent = err.message;
          inputs.get(field).input.setAttribute('aria-invalid', 'true');
          inputs.get(field).input.focus();
        } else {
          formError.textContent = `Not saved: ${err.message}`;
        }
      }
    });
    replace(editSection, form, formStatus);
  }

  /** Fetches the bodies of the newest PREVIEWED_BODIES pings that have one and are not fetched yet. */
  async function previewBodies(check, pings) {
    const newest = pings.filter((p) => p.body_url).slice(0, PREVIEWED_BODIES);
    await Promise.all(
      newest
        .filter((ping) => !bodies.has(ping.n))
        .map((ping) =>
          session.api.pingBody(check.uuid, ping.n).then(
            (text) => bodies.set(ping.n, text),
            // Not cached: the next refresh tries again (the log still links the full body).
            () => undefined,
          ),
        ),
    );
  }

  async function refresh(current) {
    try {
      const [json, flips, pings] = await Promise.all([
        session.api.get(path),
        session.api.get(`${path}/flips/?seconds=${TIMELINE_SECONDS}`),
        writable ? session.api.get(`${path}/pings/?exitstatus=1`).then((r) => r.pings) : null,
      ]);
      const check = { ...json, status: displayStatus(json) };
      if (pings) await previewBodies(check, pings);
      if (!current()) return;
      problems.poll = '';
      drawOnChange('head', drawHead, check);
      if (writable && !formShown) drawForm(check);
      drawOnChange('urls', drawUrls, { ping_url: check.ping_url });
      drawOnChange('badges', drawBadges, { name: check.name, badge_url: check.badge_url });
      // The timeline moves with the clock: redrawn when the data changes or once a minute.
      drawOnChange('timeline', drawTimeline, { status: check.status }, flips, pings, Math.floor(Date.now() / 60_000));
      drawOnChange('log', drawLog, { uuid: check.uuid }, pings, [...bodies]);
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

/**
 * A ping's full body (`GET checks/<uuid>/pings/<n>/body`).
 *
 * @param {HTMLElement} main
 * @param {{api: import('./api.js').Api}} session
 * @param {string} id - The check's UUID.
 * @param {number} n - The ping's number.
 * @returns {() => void}
 */
export function renderBody(main, session, id, n) {
  document.title = `Ping #${n} · hc-monitor`;
  const content = h('pre', { class: 'body-full' }, 'Loading…');
  replace(main, h('p', {}, h('a', { href: `#/checks/${encodeURIComponent(id)}` }, '← Back to the check')), h('h1', {}, `Body of ping #${n}`), content);
  session.api.pingBody(id, n).then(
    (text) => (content.textContent = text),
    (err) => (content.textContent = `Not shown: ${err.message}`),
  );
  return () => {};
}
