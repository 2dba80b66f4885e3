// Progressive enhancement of the checks list and of every signed-in page; each works without this script.
// - every page of a signed-in user: the tab title ("2 down · …") and the favicon follow the down count live, the
//   project's on its pages (GET <project>/checks.json), all the user's projects' elsewhere (GET /projects/glance.json),
//   each with its ETag: 304 while nothing changed;
// - checks list: the shown rows' status, running mark, last ping and last duration follow live; relative times are re-rendered every
//   tick; integration toggles and Copy buttons work in place.
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
  for (const time of table.querySelectorAll('time[datetime]')) time.textContent = relative(Date.parse(time.dateTime), now);
}

function setupLive(source, table) {
  let etag = '';
  let timer = 0;
  const poll = async () => {
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

function setupToggles(table) {
  table.addEventListener('submit', async (event) => {
    const form = event.target;
    if (!form.classList.contains('toggle')) return;
    event.preventDefault();
    const button = form.querySelector('button');
    button.disabled = true;
    try {
      const res = await fetch(form.action, { method: 'POST', headers: { accept: 'application/json' }, body: new URLSearchParams(new FormData(form)) });
      if (!res.ok) return form.submit();
      const { on } = await res.json();
      button.setAttribute('aria-pressed', String(on));
      form.querySelector('input[name="on"]').value = on ? '0' : '1';
    } finally {
      button.disabled = false;
    }
  });
}

function setupCopy(table) {
  for (const button of table.querySelectorAll('button[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      const input = button.parentElement.querySelector('input.ping-url');
      try {
        await navigator.clipboard.writeText(input.value);
      } catch {
        input.select();
        document.execCommand('copy');
      }
      button.textContent = 'Copied';
      setTimeout(() => { button.textContent = 'Copy'; }, 1500);
    });
  }
}

const source = document.querySelector('meta[name="live-status"]')?.content;
const list = document.querySelector('table#checks[data-live]');
if (source) setupLive(source, list);
if (list) {
  setupToggles(list);
  setupCopy(list);
}
