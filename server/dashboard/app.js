/**
 * The dashboard's entry point: sign-in, the session (the API key, kept in this
 * tab's sessionStorage only) and hash routing:
 *
 * - `#/`                      the checks list (list.js)
 * - `#/checks/<id>`           a check (detail.js); `<id>` is the UUID, or the unique_key with a read-only key
 * - `#/checks/<id>/pings/<n>` a ping's full body (detail.js)
 */
import { Api, ApiError } from './api.js';
import { h, replace } from './dom.js';
import { renderList } from './list.js';
import { renderDetail, renderBody } from './detail.js';

const KEY_STORAGE = 'hc-monitor-api-key';
const main = document.getElementById('main');
const accessBadge = document.getElementById('access');
const signOutButton = document.getElementById('sign-out');

/** @type {{api: Api, access: 'read-write' | 'read-only'} | null} */
let session = null;
/** Stops the current view's live updates. */
let stopView = () => {};

function setSession(next) {
  session = next;
  accessBadge.hidden = signOutButton.hidden = session === null;
  if (session) accessBadge.textContent = session.access === 'read-only' ? 'read-only key' : 'read-write key';
}

function signOut() {
  sessionStorage.removeItem(KEY_STORAGE);
  setSession(null);
  route();
}

function renderSignIn(message) {
  document.title = 'Sign in · hc-monitor';
  const error = h('p', { id: 'key-error', class: 'field-error', role: 'alert' }, message ?? '');
  const input = h('input', {
    id: 'api-key',
    name: 'api-key',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
    'aria-describedby': 'key-help key-error',
    'aria-invalid': message ? 'true' : null,
  });
  const form = h(
    'form',
    { class: 'sign-in', onsubmit: (event) => (event.preventDefault(), signIn(input.value.trim())) },
    h('h1', {}, 'Sign in'),
    h('label', { for: 'api-key' }, 'Project API key'),
    input,
    h(
      'p',
      { id: 'key-help', class: 'help' },
      'The read-write key shows everything and lets you pause, resume and edit checks; the read-only key shows statuses, flips and badges.',
    ),
    error,
    h('button', { type: 'submit' }, 'Sign in'),
  );
  replace(main, form);
  input.focus();
}

async function signIn(key) {
  const api = new Api(key);
  try {
    const access = await api.access();
    sessionStorage.setItem(KEY_STORAGE, key);
    setSession({ api, access });
    route();
  } catch (err) {
    renderSignIn(err instanceof ApiError ? `Not signed in: ${err.message}` : `Not signed in: the service cannot be reached (${err.message})`);
  }
}

/** A path segment decoded, or undefined when absent or malformed (`%zz`). */
function decoded(segment) {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function route() {
  stopView();
  stopView = () => {};
  if (!session) {
    renderSignIn();
    return;
  }
  const path = location.hash.replace(/^#/, '') || '/';
  const body = path.match(/^\/checks\/([^/]+)\/pings\/(\d+)$/);
  const detail = path.match(/^\/checks\/([^/]+)$/);
  const id = decoded((body ?? detail)?.[1]);
  if (body && id) stopView = renderBody(main, session, id, Number(body[2]));
  else if (detail && id) stopView = renderDetail(main, session, id);
  else stopView = renderList(main, session);
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

signOutButton.addEventListener('click', signOut);
window.addEventListener('hashchange', route);

const stored = sessionStorage.getItem(KEY_STORAGE);
if (stored) signIn(stored);
else route();
