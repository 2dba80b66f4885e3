/**
 * The one-line error of a live view.
 */

/**
 * The last refresh's error (`role=alert`), cleared by its next success; the element is only written when its text
 * changes, so a screen reader announces a problem once.
 */
export class ProblemLine {
  /** @param {HTMLElement} element */
  constructor(element) {
    this.element = element;
    this.poll = '';
  }

  /** Shows the current error. */
  show() {
    if (this.element.textContent !== this.poll) this.element.textContent = this.poll;
  }
}
