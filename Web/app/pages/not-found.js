// Shown for a URL that no page of pages.json matches (the server answers those with 404, so
// this appears only after history navigation to a page that a newer app version dropped).
import { t } from '../i18n.js';
import { el } from '../dom.js';

export const titleKey = 'page.notFound.title';

/** @param {HTMLElement} root */
export function render(root) {
  root.replaceChildren(
    el('h1', {}, t('page.notFound.title')),
    el('p', {}, t('notFound.text')),
    el('p', {}, el('a', { href: '/' }, t('notFound.home'))),
  );
}
