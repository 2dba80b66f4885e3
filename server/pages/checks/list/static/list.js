// Progressive enhancement of the checks list and of every signed-in page; each works without this script.
// - every page of a signed-in user: the tab title ("2 down · …") and the favicon follow the down count live, the
//   project's on its pages (GET <project>/checks.json), all the user's projects' elsewhere (GET /projects/glance.json),
//   each with its ETag: 304 while nothing changed;
// - checks list: the shown rows' status, running mark, last ping and last duration follow live; relative times are re-rendered every
//   tick; integration toggles and Copy buttons work in place; the search, status boxes and sort apply as you type or
//   tick (one fetch of the list page, its results swapped in; Apply stays for pages without this script); the uuid/slug
//   switch of the ping URLs applies in place and is remembered in localStorage.
// The poll runs every 2 s, every 30 s while the tab is hidden.

const POLL_MS = 2000;
const HIDDEN_POLL_MS = 30000;
const UNITS = [['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]];

/** As server/pages/kit/times.ts relativeTime: "just now", "3 minutes ago", "in 2 hours". */
function relative(at, now) {
  const diffS = Math.round((now - at) / 1000);
  const abs = Math.abs(diffS);
  if (abs < 10) return 'just now';
  const [name, size] = UNITS.find(([, unit]) => abs >= unit) ?? ['second', 1];
  const n = Math.floor(abs / size);
  const text = `${n} ${name}${n === 1 ? '' : 's'}`;
  return diffS >= 0 ? `${text} ago` : `in ${text}`;
}

/** A list cell's short form, as server/pages/check-list.ts compactAgo: "just now", "2 min ago", "in 3 h". */
function compact(at, now) {
  const diff = now - at;
  if (Math.abs(diff) < 10000) return 'just now';
  const [unit, size] = [['d', 86400000], ['h', 3600000], ['min', 60000], ['s', 1000]].find(([, ms]) => Math.abs(diff) >= ms);
  const n = Math.floor(Math.abs(diff) / size);
  return diff > 0 ? `${n} ${unit} ago` : `in ${n} ${unit}`;
}

function showDown(down) {
  const title = document.querySelector('title');
  title.textContent = `${down > 0 ? `${down} down · ` : ''}${title.dataset.title}`;
  const icon = document.querySelector('#favicon');
  const href = `/static/${down > 0 ? 'favicon-down' : 'favicon'}.svg`;
  if (icon.getAttribute('href') !== href) icon.setAttribute('href', href);
}

function updateRow(row, check) {
  if (row.dataset.status !== check.status) {
    row.dataset.status = check.status;
    const badge = row.querySelector('[data-field="status"]');
    badge.textContent = check.status;
    badge.className = `status status-${check.status}`;
  }
  row.querySelector('[data-field="running"]').hidden = !check.running;
  const duration = row.querySelector('[data-field="last_duration"]');
  if (duration && duration.textContent !== check.last_duration) duration.textContent = check.last_duration;
  const cell = row.querySelector('[data-field="last_ping"]');
  const time = cell.querySelector('time');
  if (check.last_ping && time?.dateTime !== check.last_ping) {
    const fresh = document.createElement('time');
    fresh.dateTime = check.last_ping;
    fresh.title = new Date(check.last_ping).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
    cell.replaceChildren(fresh);
  }
}

function tickTimes(table) {
  const now = Date.now();
  const short = table.classList.contains('checks-list');
  for (const time of table.querySelectorAll('time[datetime]')) time.textContent = (short ? compact : relative)(Date.parse(time.dateTime), now);
}

function setupLive(source, findTable) {
  let etag = '';
  let timer = 0;
  const poll = async () => {
    const table = findTable();
    const ids = table ? [...table.querySelectorAll('tr[data-check]')].map((row) => row.dataset.check) : [];
    const res = await fetch(`${source}?ids=${ids.join(',')}`, { headers: { accept: 'application/json', ...(etag ? { 'if-none-match': etag } : {}) } });
    if (res.status === 200) {
      etag = res.headers.get('etag') ?? '';
      const { down, checks } = await res.json();
      showDown(down);
      for (const check of checks) {
        const row = table?.querySelector(`tr[data-check="${check.id}"]`);
        if (row) updateRow(row, check);
      }
    }
    if (table) tickTimes(table);
  };
  const schedule = () => {
    clearInterval(timer);
    timer = setInterval(() => void poll().catch(() => undefined), document.hidden ? HIDDEN_POLL_MS : POLL_MS);
  };
  document.addEventListener('visibilitychange', () => {
    schedule();
    if (!document.hidden) void poll().catch(() => undefined);
  });
  schedule();
}

/** Integration toggles: the button's own POST (its formaction), answered in JSON, and the button flipped in place. */
function setupToggles() {
  document.addEventListener('submit', async (event) => {
    const button = event.submitter;
    if (event.target.id !== 'row-actions' || !button?.classList.contains('toggle')) return;
    event.preventDefault();
    // The body first: a disabled button's name and value are left out of a form's data.
    const body = new URLSearchParams(new FormData(event.target, button));
    button.disabled = true;
    try {
      const res = await fetch(button.formAction, { method: 'POST', headers: { accept: 'application/json' }, body });
      if (!res.ok) return void event.target.requestSubmit(button);
      const { on } = await res.json();
      button.setAttribute('aria-pressed', String(on));
      button.value = on ? '0' : '1';
    } finally {
      button.disabled = false;
    }
  });
}

const URLS_KEY = 'checks-list-urls';

/** Shows every row's ping URL by `mode` (`uuid`, or `slug` where the row has one), as the server renders it. */
function showUrls(table, mode) {
  for (const row of table.querySelectorAll('tr[data-check]')) {
    const code = row.querySelector('code.ping-url');
    if (!code) continue;
    const slug = mode === 'slug' && table.dataset.pingKey ? row.dataset.slug : undefined;
    const base = `${table.dataset.pingBase}${slug ? `${table.dataset.pingKey}/` : ''}`;
    const tail = slug ?? row.dataset.check;
    code.title = `${base}${tail}`;
    code.querySelector('.ping-path').textContent = base.slice(code.querySelector('.ping-host').textContent.length);
    code.querySelector('b').textContent = tail;
    row.querySelector('button[data-copy]').dataset.copy = `${base}${tail}`;
  }
  for (const link of table.querySelectorAll('.url-switch a')) {
    if (link.dataset.urls === mode) link.setAttribute('aria-current', 'true');
    else link.removeAttribute('aria-current');
  }
}

/** Copy buttons (shown only with this script), and the uuid/slug switch of the ping URLs. */
function setupRows() {
  document.addEventListener('click', async (event) => {
    const copy = event.target.closest('button[data-copy]');
    const urls = event.target.closest('.url-switch a[data-urls]');
    if (urls) {
      event.preventDefault();
      localStorage.setItem(URLS_KEY, urls.dataset.urls);
      showUrls(urls.closest('table'), urls.dataset.urls);
    }
    if (!copy) return;
    try {
      await navigator.clipboard.writeText(copy.dataset.copy);
    } catch {
      // No clipboard API (a page served over plain HTTP to another host): copy through a selected text area.
      const area = Object.assign(document.createElement('textarea'), { value: copy.dataset.copy });
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    copy.textContent = 'Copied';
    setTimeout(() => { copy.textContent = 'Copy'; }, 1500);
  });
}

/** The rows as this page's controls say: the remembered ping URL kind, and the Copy buttons shown. */
function dressRows() {
  const table = document.querySelector('table#checks');
  if (!table) return;
  for (const button of table.querySelectorAll('button[data-copy]')) button.hidden = false;
  const mode = localStorage.getItem(URLS_KEY);
  if ((mode === 'uuid' || mode === 'slug') && !new URL(location.href).searchParams.has('urls')) showUrls(table, mode);
}

/** Search as you type: the filter form's query fetched (one request, 250 ms after the last key) and its results swapped in. */
function setupFilters(form) {
  let timer = 0;
  let asked = 0;
  const refresh = async () => {
    const params = new URLSearchParams(new FormData(form));
    const url = `${form.action}?${params}`;
    const n = ++asked;
    const res = await fetch(url, { headers: { accept: 'text/html' } });
    if (!res.ok || n !== asked) return;
    const fresh = new DOMParser().parseFromString(await res.text(), 'text/html').querySelector('#list-results');
    if (!fresh) return;
    document.querySelector('#list-results').replaceWith(document.adoptNode(fresh));
    history.replaceState(null, '', res.url);
    dressRows();
  };
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh().catch(() => undefined), 250);
  };
  form.querySelector('input[type="search"]').addEventListener('input', soon);
  form.addEventListener('change', (event) => {
    if (event.target.type !== 'search') soon();
  });
}

const source = document.querySelector('meta[name="live-status"]')?.content;
const findList = () => document.querySelector('table#checks[data-live]');
if (source) setupLive(source, findList);
if (findList() || document.querySelector('form.list-filters')) {
  setupToggles();
  setupRows();
  dressRows();
}
const filters = document.querySelector('form.list-filters');
if (filters) setupFilters(filters);
