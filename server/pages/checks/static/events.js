// A check's page (server/pages/checks/check-page.ts), each part of which works without this script:
// - live events: polls <check>/events?since=<ping n>&after=<ms> and puts the new rows (HTML the server rendered and
//   escaped) on top of the list, the state in words, the badge, the tab title and favicon (this check's status), and
//   the facts pings change (Last ping, Pings); every 2 s while the tab is visible, every 30 s while it is hidden;
// - a click on a ping's row opens its details in place (the row's number links to the ping's page);
// - the ping URL's Copy button (the URL is selectable text without it);
// - the integrations' on/off switches post in place.

const VISIBLE_MS = 2000;
const HIDDEN_MS = 30000;

function setupLiveEvents(table) {
  const rows = table.querySelector('tbody');
  const state = document.querySelector('#check-state');
  const status = document.querySelector('#check-status');
  // The page's zone choice (?tz=, server/pages/kit/zone.ts) goes with every poll, so new rows show times in the same zone.
  const tz = new URLSearchParams(location.search).get('tz');
  const withZone = (url) => (tz ? `${url}&tz=${encodeURIComponent(tz)}` : url);
  let next = withZone(table.dataset.events);
  let timer = 0;

  const poll = async () => {
    const res = await fetch(next, { headers: { accept: 'application/json' } });
    if (!res.ok) return;
    const data = await res.json();
    next = withZone(`${new URL(next, location.href).pathname}?${data.next}`);
    if (data.html) {
      const fragment = document.createElement('template');
      fragment.innerHTML = data.html;
      for (const row of [...fragment.content.querySelectorAll('tr')].reverse()) {
        if (row.id && document.getElementById(row.id)) continue;
        rows.prepend(row);
      }
      document.querySelector('#no-events')?.remove();
    }
    if (state) state.textContent = data.state;
    for (const [id, text] of [['last-ping', data.facts.last_ping], ['n-pings', data.facts.n_pings]]) {
      const fact = document.getElementById(id);
      if (fact && fact.textContent !== text) fact.textContent = text;
    }
    if (status && status.textContent !== data.status) {
      status.textContent = data.status;
      status.className = `status status-${data.status === 'running' ? 'started' : data.status}`;
    }
    showCheckDown(data.down);
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(tick, document.visibilityState === 'hidden' ? HIDDEN_MS : VISIBLE_MS);
  };
  const tick = () => void poll().catch(() => undefined).finally(later);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') tick();
  });
  later();
}

/** The tab title and favicon of this check: "down · " and the red icon only while it is down. */
function showCheckDown(down) {
  const title = document.querySelector('title');
  if (title?.dataset.title) title.textContent = `${down ? 'down · ' : ''}${title.dataset.title}`;
  const icon = document.querySelector('#favicon');
  const href = `/static/${down ? 'favicon-down' : 'favicon'}.svg`;
  if (icon && icon.getAttribute('href') !== href) icon.setAttribute('href', href);
}

function setupRowDetails(table) {
  table.addEventListener('click', (event) => {
    if (event.target.closest('a, button')) return;
    const row = event.target.closest('tr.event-ping');
    if (!row || window.getSelection()?.toString()) return;
    row.classList.toggle('open');
  });
}

/** Copy buttons: `data-copy` names the element whose text they copy; it is selected too, so Ctrl+C works anyway. */
function setupCopy() {
  for (const button of document.querySelectorAll('button[data-copy]')) {
    const source = document.getElementById(button.dataset.copy);
    if (!source) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      window.getSelection()?.selectAllChildren(source);
      let copied = true;
      try {
        await navigator.clipboard.writeText(source.textContent);
      } catch {
        copied = document.execCommand('copy');
      }
      button.textContent = copied ? 'Copied' : 'Selected';
      setTimeout(() => { button.textContent = 'Copy'; }, 1500);
    });
  }
}

function setupSwitches() {
  document.addEventListener('submit', async (event) => {
    const form = event.target;
    if (!form.classList?.contains('integration-toggle')) return;
    event.preventDefault();
    const button = form.querySelector('button');
    button.disabled = true;
    try {
      const res = await fetch(form.action, { method: 'POST', headers: { accept: 'application/json' }, body: new URLSearchParams(new FormData(form)) });
      if (!res.ok) return form.submit();
      const { on } = await res.json();
      button.setAttribute('aria-pressed', String(on));
      button.querySelector('.switch-state').textContent = on ? 'on' : 'off';
      button.title = button.title.replace(/(on|off)$/, on ? 'off' : 'on');
      const names = [...document.querySelectorAll('button.switch[aria-pressed="true"] .integration-name')].map((n) => n.textContent);
      const summary = document.getElementById('check-channels');
      if (summary) summary.textContent = names.length ? names.join(', ') : 'none';
      form.querySelector('input[name="on"]').value = on ? '0' : '1';
    } finally {
      button.disabled = false;
    }
  });
}

const live = document.querySelector('table.events-list[data-events]');
if (live) setupLiveEvents(live);
const table = document.querySelector('table.events-list');
if (table) setupRowDetails(table);
setupCopy();
setupSwitches();
