// Placeholder while the page is being written (issue #14); replaced in the next commits.
import { el } from '../dom.js';

export const titleKey = 'page.notFound.title';

/** @param {HTMLElement} root */
export async function render(root) {
  root.replaceChildren(el('h1', {}, '…'));
}
