// Building elements without innerHTML: el('p', {class: 'hint'}, 'text', child). A function
// value for an `on…` name becomes an event listener (the CSP forbids inline handlers).

/** @typedef {Node | string | null | undefined | false} Child */
/** @typedef {Record<string, string | number | boolean | null | undefined | ((event: any) => void)>} Attributes */

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attributes} [attributes] `true` sets an empty attribute; false, null and undefined leave it out
 * @param {...Child} children strings become text nodes; null, undefined and false are skipped
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value != null) element.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) element.append(child);
  }
  return element;
}

let counter = 0;
/**
 * An id no other element of the document has.
 * @param {string} prefix
 */
export function uniqueId(prefix) {
  counter += 1;
  return `${prefix}-${counter}`;
}

const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';

/**
 * What a control is, apart from its generated id and its changing words: a control drawn again
 * from the same data has the same signature.
 * @param {Element} element
 */
function signature(element) {
  return [element.tagName, element.getAttribute('name'), element.getAttribute('type'), element.getAttribute('class'),
    element.getAttribute('href'), element.getAttribute('value')].join('\u0000');
}

/**
 * `parent.replaceChildren(...children)` for a part of a page drawn again while a person is in it:
 * the control that had the keyboard's focus inside `parent` has it again in the new drawing (the
 * same kind of control at the same place among its kind), so a keyboard or screen-reader user is
 * not thrown back to the top of the page.
 * @param {Element} parent
 * @param {...(Node | string)} children
 */
export function replaceKeepingFocus(parent, ...children) {
  const active = document.activeElement;
  const focused = active instanceof HTMLElement && active !== parent && parent.contains(active) ? active : null;
  const kind = focused ? signature(focused) : '';
  const place = focused ? [...parent.querySelectorAll(FOCUSABLE)].filter((element) => signature(element) === kind).indexOf(focused) : -1;
  parent.replaceChildren(...children);
  if (!focused) return;
  const same = [...parent.querySelectorAll(FOCUSABLE)].filter((element) => signature(element) === kind);
  const next = /** @type {HTMLElement | undefined} */ (same[place] ?? same[0]);
  if (next && !next.matches(':disabled')) next.focus({ preventScroll: true });
}
