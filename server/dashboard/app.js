/**
 * The wall display's entry point: a read-only view of one project for a screen on a wall. Sign-in takes a
 * read-only API key only (a read-write key is refused, so the page never holds a key that can change anything; it
 * makes GET requests only); the key is kept in this tab's sessionStorage only. People sign in at `/signin/`.
 * Hash routing:
 *
 * - `#/`              the checks list (list.js)
 * - `#/checks/<key>`  a check (detail.js), by its unique_key
 */
import { Api, ApiError } from './api.js';
import { h, replace } from './dom.js';
import { renderList } from './list.js';
import { renderDetail } from './detail.js';

const KEY_STORAGE = 'hc-monitor-api-key';
const main = document.getElementById('main');
const signOutButton = document.getElementById('sign-out');

/** @type {{api: Api} | null} */
let session = null;
/** Stops the current view's live updates. */
let stopView = () => {};

function setSession(next) {
  session = next;
  signOutButton.hidden = session === null;
}

function signOut() {
  sessionStorage.removeItem(KEY_STORAGE);
  setSession(null);
  route();
}

function renderSignIn(message) {
  document.title = 'Wall display · hc-monitor';
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
    h('h1', {}, 'Wall display (read-only)'),
    h(
      'p',
      { id: 'wall-help' },
      'Shows one project\'s checks, their statuses, the last 30 days and badges on a screen, without an account. Nothing can be changed here. ',
      h('a', { href: '/signin/', id: 'sign-in-link' }, 'Sign in with your email address'),
      ' to create, edit, pause or delete checks.',
    ),
    h('label', { for: 'api-key' }, 'Read-only API key'),
    input,
    h(
      'p',
      { id: 'key-help', class: 'help' },
      'An owner makes one on the project\'s Settings page (access: read-only), or it is the project\'s api_key_readonly. A read-write key is refused.',
    ),
    error,
    h('button', { type: 'submit' }, 'Show checks'),
  );
  replace(main, form);
  input.focus();
}

async function signIn(key) {
  const api = new Api(key);
  try {
    if ((await api.access()) !== 'read-only') {
      sessionStorage.removeItem(KEY_STORAGE);
      renderSignIn('Not signed in: this is a read-write key. The wall display takes a read-only API key; to change checks, sign in with your email address.');
      return;
    }
    sessionStorage.setItem(KEY_STORAGE, key);
    setSession({ api });
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
  const detail = path.match(/^\/checks\/([^/]+)$/);
  const id = decoded(detail?.[1]);
  if (id) stopView = renderDetail(main, session, id);
  else stopView = renderList(main, session);
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

signOutButton.addEventListener('click', signOut);
window.addEventListener('hashchange', route);

const stored = sessionStorage.getItem(KEY_STORAGE);
if (stored) signIn(stored);
else route();
