/**
 * Buttons that change a check through the API (read-write key only).
 */
import { h } from './dom.js';

/**
 * "Pause" for a monitored check, "Resume" for a paused one (`POST checks/<uuid>/pause` or `/resume`).
 *
 * @param {import('./api.js').Api} api
 * @param {{uuid: string, name: string, status: string}} check - Check JSON (read-write key, so it has `uuid`).
 * @param {string} focusKey - Its `data-focus`, so focus stays on it across re-renders.
 * @param {(request: Promise<unknown>) => Promise<void>} act - Runs the request, shows its error, re-reads.
 */
export function pauseButton(api, check, focusKey, act) {
  const paused = check.status === 'paused';
  const verb = paused ? 'Resume' : 'Pause';
  return h(
    'button',
    {
      type: 'button',
      class: 'action',
      'data-focus': focusKey,
      'aria-label': `${verb} ${check.name || 'unnamed'}`,
      // Pause and resume are idempotent, so a double click does no harm (and the button keeps its focus).
      onclick: () => act(api.post(`checks/${check.uuid}/${paused ? 'resume' : 'pause'}`)),
    },
    verb,
  );
}

/**
 * The one-line error of a live view (`role=alert`): the last action's error and the last refresh's error,
 * each cleared by its next success; the element is only written when its text changes.
 */
export class ProblemLine {
  /** @param {HTMLElement} element */
  constructor(element) {
    this.element = element;
    this.action = '';
    this.poll = '';
  }

  /** Shows the current errors. */
  show() {
    const text = [this.action, this.poll].filter(Boolean).join(' ');
    if (this.element.textContent !== text) this.element.textContent = text;
  }

  /**
   * Awaits a button's API request, keeps its error, then runs `refresh`.
   *
   * @param {Promise<unknown>} request
   * @param {() => Promise<void>} refresh
   */
  async act(request, refresh) {
    try {
      await request;
      this.action = '';
    } catch (err) {
      this.action = `Not done: ${err.message}`;
    }
    await refresh();
  }
}
