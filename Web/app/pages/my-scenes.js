// `/me/scenes` (the seed's Me tab): the signed-in person's scenes, newest first, by pages (GET
// /api/v1/me/scenes), each cell linking to its scene; signed out, a way to sign in.
import { t } from '../i18n.js';
import { el } from '../dom.js';
import { api, ApiError } from '../api.js';
import { describeError } from '../errors.js';
import { announce } from '../status.js';
import { currentUser } from '../session.js';
import { unitSystem } from '../../photos/format.js';
import { myScenesPath } from '../../scenes/format.js';
import { sceneCell } from './scenes.js';

/** @typedef {import('../../scenes/format.js').Scene} Scene */

export const titleKey = 'scenes.mine.title';

/** @param {HTMLElement} root */
export async function render(root) {
  const user = await currentUser();
  if (!user) {
    root.replaceChildren(
      el('h1', {}, t('scenes.mine.heading')),
      el('section', { class: 'card' },
        el('p', {}, t('scenes.mine.signedOut')),
        el('p', { class: 'actions' },
          el('a', { class: 'button primary', href: '/account#sign-in' }, t('scenes.mine.signIn')),
          el('a', { class: 'button', href: '/scenes' }, t('scenes.mine.discover')))));
    return;
  }
  let alive = true;
  const system = unitSystem(navigator.language);
  const message = el('div', { class: 'scenes-message', 'aria-live': 'polite' });
  const grid = el('ul', { class: 'scenes-grid', 'aria-label': t('scenes.mine.results') });
  const more = el('button', { type: 'button', class: 'more', hidden: true }, t('scenes.nearby.more'));
  root.replaceChildren(
    el('h1', {}, t('scenes.mine.heading')),
    el('p', { class: 'actions scenes-actions' },
      el('a', { class: 'button primary', href: '/scenes/new' }, t('scenes.new')),
      el('a', { class: 'button', href: '/scenes' }, t('scenes.mine.discover'))),
    message, grid, more);

  /** @type {Scene[]} */
  let items = [];
  /** @type {string | null} */
  let next = null;

  /** @param {string | null} cursor */
  async function load(cursor) {
    grid.setAttribute('aria-busy', 'true');
    more.disabled = true;
    try {
      /** @type {{items: Scene[], next: string | null}} */
      const answer = await api.get(myScenesPath({ cursor }));
      if (!alive) return;
      items = cursor ? [...items, ...answer.items] : answer.items;
      next = answer.next;
      grid.replaceChildren(...items.map((scene) => sceneCell(scene, system)));
      more.hidden = !next;
      if (items.length === 0) {
        message.replaceChildren(el('p', { class: 'hint' }, t('scenes.mine.empty')));
      } else {
        message.replaceChildren(el('p', { class: 'hint' }, t('scenes.mine.count', { count: items.length })));
      }
      if (cursor) announce(t('scenes.nearby.announce', { count: items.length }));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (alive) {
        message.replaceChildren(el('p', { class: 'form-error' }, describeError(error, t)),
          el('p', { class: 'actions' }, el('button', { type: 'button', onclick: () => void load(cursor) }, t('position.retry'))));
      }
    } finally {
      grid.removeAttribute('aria-busy');
      more.disabled = false;
    }
  }
  more.addEventListener('click', () => void load(next));
  await load(null);
  return () => { alive = false; };
}
