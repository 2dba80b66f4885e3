// A public status page's conveniences: it follows the page live (a conditional GET every few seconds, slower in a hidden tab, swapping in the
// new content), and a day of a bar tells its downtimes on hover, or on focus with the arrow keys.
let live = document.getElementById('live');
let etag = null;

/** Fetches the page; a changed one replaces the live part. */
async function refresh() {
  try {
    const res = await fetch(location.pathname, { headers: etag ? { 'If-None-Match': etag } : {}, cache: 'no-cache' });
    if (res.status !== 200) return;
    etag = res.headers.get('ETag');
    const next = new DOMParser().parseFromString(await res.text(), 'text/html').getElementById('live');
    if (next && live && next.innerHTML !== live.innerHTML) {
      // Keep a keyboard user's place: the bar that had focus gets it back in the new content.
      const focused = live.contains(document.activeElement) ? document.activeElement.getAttribute('aria-describedby') : null;
      live.replaceWith(next);
      live = next;
      if (focused) next.querySelector(`[aria-describedby="${focused}"]`)?.focus();
    }
  } catch {
    // Offline for a moment: the next tick tries again.
  }
}
function schedule() {
  setTimeout(async () => {
    await refresh();
    schedule();
  }, document.hidden ? 30_000 : 1_000);
}
if (live) schedule();

/** Shows a day's text under its bar. */
function pick(svg, index) {
  const rects = svg.querySelectorAll('rect');
  const i = Math.max(0, Math.min(rects.length - 1, index));
  rects.forEach((r, k) => r.classList.toggle('picked', k === i));
  svg.dataset.picked = String(i);
  const tip = document.getElementById(svg.getAttribute('aria-describedby'));
  if (tip) tip.textContent = rects[i]?.querySelector('title')?.textContent ?? '';
}

document.addEventListener('mouseover', (event) => {
  const rect = event.target.closest?.('svg.days rect');
  if (rect) pick(rect.ownerSVGElement, [...rect.parentNode.querySelectorAll('rect')].indexOf(rect));
});
document.addEventListener('focusin', (event) => {
  if (event.target.matches?.('svg.days')) pick(event.target, Number(event.target.dataset.picked ?? event.target.querySelectorAll('rect').length - 1));
});
document.addEventListener('keydown', (event) => {
  const svg = event.target.closest?.('svg.days');
  if (!svg || !['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
  event.preventDefault();
  const at = Number(svg.dataset.picked ?? 0);
  const last = svg.querySelectorAll('rect').length - 1;
  pick(svg, { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last }[event.key]);
});
