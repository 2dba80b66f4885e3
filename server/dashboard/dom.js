/**
 * DOM building for the dashboard. Text always goes in as text nodes, never as
 * HTML, so a check's name or a ping body cannot inject markup.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Appends children (nodes or strings; null and false are skipped) to `node`.
 *
 * @param {Node} node
 * @param {Array} children
 */
function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
}

/**
 * Creates an element: `h('a', {href: '#/', class: 'x'}, 'text', otherNode)`.
 * Attributes starting with `on` are event listeners; `true` sets a boolean attribute, `false`/null omit it.
 *
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...(Node | string | number | null | false)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttributes(node, attrs);
  append(node, children);
  return node;
}

/**
 * Creates an SVG element, as `h` does.
 *
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttributes(node, attrs);
  append(node, children);
  return node;
}

function setAttributes(node, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
}

/**
 * Replaces the children of `node`.
 *
 * @param {Node} node
 * @param {...(Node | string | null | false)} children
 */
export function replace(node, ...children) {
  node.replaceChildren();
  append(node, children);
}

/**
 * Re-renders `container` with `render()` and gives keyboard focus back to the element that had it
 * (matched by its `data-focus` key), so a live update does not move the user's focus.
 *
 * @param {HTMLElement} container
 * @param {() => Node[]} render
 */
export function rerenderKeepingFocus(container, render) {
  const key = document.activeElement?.closest?.('[data-focus]')?.getAttribute('data-focus');
  replace(container, ...render());
  if (key) container.querySelector(`[data-focus="${CSS.escape(key)}"]`)?.focus();
}

/**
 * Brings every `<time datetime>` under `root` up to date with `words(datetime)`, in place, so a live
 * update that changed nothing else keeps focus, selection and open `<details>` as they are.
 *
 * @param {ParentNode} root
 * @param {(iso: string) => string} words
 */
export function refreshTimes(root, words) {
  for (const time of root.querySelectorAll('time[datetime]')) {
    const text = words(time.getAttribute('datetime'));
    if (time.textContent !== text) time.textContent = text;
  }
}
