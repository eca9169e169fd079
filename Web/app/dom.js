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
