// Live events on a check's page (server/pages/checks/check-page.ts): polls <check>/events?since=<ping n>&after=<ms> and puts
// the new rows (HTML the server rendered and escaped) on top of the list, the state in words in the heading, and the
// facts pings change (Last ping, Pings).
// Every 2 s while the tab is visible, every 30 s while it is hidden. Without this script the page shows the same
// events on reload.

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
      status.className = `status status-${data.status}`;
    }
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

const live = document.querySelector('table.events-list[data-events]');
if (live) setupLiveEvents(live);
