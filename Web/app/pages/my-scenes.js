// `/me/scenes` (the seed's Me tab): the signed-in person's scenes, newest first, by pages (GET
// /api/v1/me/scenes), each cell linking to its scene; signed out, a way to sign in. Above them,
// what waits on this phone (Web/scenes/uploads.js): new scenes and rephotographs the cameras kept
// because there was no network — each with Send now (Try again when the server refused it) and
// Discard —, shown offline and signed out too, since they are on the phone, not on the server.
import { t, language } from '../i18n.js';
import { el } from '../dom.js';
import { call, ApiError } from '../api.js';
import { describeError } from '../errors.js';
import { announce } from '../status.js';
import { currentUser } from '../session.js';
import { unitSystem } from '../../photos/format.js';
import { myScenesQuery } from '../../scenes/format.js';
import { sceneUploads, onSceneUploadEvent, queuedTitle, describeSceneError } from '../../scenes/uploads.js';
import { sceneCell } from '../../scenes/cell.js';

/** @typedef {import('../../scenes/format.js').Scene} Scene */
/** @typedef {import('../../scenes/outbox.js').QueuedScene} QueuedScene */

export const titleKey = 'scenes.mine.title';

/**
 * @param {HTMLElement} root
 * @param {import('../router.js').PageContext} context
 */
export async function render(root, { signal }) {
  const outbox = sceneUploads();

  // ---- What waits on this phone ----
  const waitingList = el('ul', { class: 'scene-outbox-list', 'aria-label': t('sceneOutbox.list') });
  const waitingSection = el('section', { class: 'card scene-outbox', 'aria-labelledby': 'scene-outbox-heading', hidden: true },
    el('h2', { id: 'scene-outbox-heading' }, t('sceneOutbox.heading')),
    el('p', { class: 'hint' }, t('sceneOutbox.hint')),
    waitingList);
  /** @type {string[]} the thumbnails' object URLs, revoked when redrawn */
  let thumbnails = [];

  /** @param {QueuedScene} item */
  function waitingItem(item) {
    const title = queuedTitle(item);
    const image = item.parts.find((part) => part.field === 'image');
    const url = image ? URL.createObjectURL(new Blob([image.data], { type: image.type })) : '';
    if (url) thumbnails.push(url);
    const taken = item.capturedAt ? Date.parse(item.capturedAt) : item.createdAt;
    const state = item.state === 'failed'
      ? t('sceneOutbox.state.failed', { reason: item.error ? describeSceneError(item.error) : '' })
      : t(item.state === 'sending' ? 'sceneOutbox.state.sending' : 'sceneOutbox.state.waiting');
    return el('li', { class: `scene-outbox-item ${item.state}`, 'data-kind': item.kind },
      url ? el('img', { class: 'scene-outbox-thumb', src: url, alt: '' }) : null,
      el('div', { class: 'scene-outbox-text' },
        el('strong', { class: 'scene-outbox-title' }, title),
        el('span', { class: 'scene-outbox-time' }, t('sceneOutbox.taken', {
          time: new Intl.DateTimeFormat(language(), { dateStyle: 'medium', timeStyle: 'short' }).format(Number.isNaN(taken) ? item.createdAt : taken),
        })),
        el('span', { class: 'scene-outbox-state' }, state)),
      el('p', { class: 'actions scene-outbox-actions' },
        el('button', { type: 'button', disabled: item.state === 'sending', 'aria-label': t('sceneOutbox.retryLabel', { title }), onclick: () => void outbox.retry(item.id) },
          t(item.state === 'failed' ? 'sceneOutbox.retry' : 'sceneOutbox.sendNow')),
        el('button', { type: 'button', class: 'danger', disabled: item.state === 'sending', 'aria-label': t('sceneOutbox.discardLabel', { title }), onclick: () => void outbox.discard(item.id) },
          t('sceneOutbox.discard'))));
  }

  async function showWaiting() {
    const items = await outbox.list();
    if (signal.aborted) return;
    for (const url of thumbnails) URL.revokeObjectURL(url);
    thumbnails = [];
    waitingList.replaceChildren(...items.map(waitingItem));
    waitingSection.hidden = items.length === 0;
  }

  // ---- The scenes on the server ----
  const system = unitSystem(navigator.language);
  const server = el('div', { class: 'scenes-mine' });
  const message = el('div', { class: 'scenes-message', 'aria-live': 'polite' });
  const grid = el('ul', { class: 'scenes-grid', 'aria-label': t('scenes.mine.results') });
  const more = el('button', { type: 'button', class: 'more', hidden: true }, t('scenes.nearby.more'));
  more.addEventListener('click', () => void load(next));
  root.replaceChildren(el('h1', {}, t('scenes.mine.heading')), waitingSection, server);

  /** @type {Scene[]} */
  let items = [];
  /** @type {string | null} */
  let next = null;

  /** Signed in: the actions and the grid; else a way to sign in (or, offline, why nothing shows). */
  async function showServer() {
    const user = await currentUser();
    if (signal.aborted) return;
    if (!user) {
      server.replaceChildren(navigator.onLine
        ? el('section', { class: 'card' },
          el('p', {}, t('scenes.mine.signedOut')),
          el('p', { class: 'actions' },
            el('a', { class: 'button primary', href: '/account#sign-in' }, t('scenes.mine.signIn')),
            el('a', { class: 'button', href: '/scenes' }, t('scenes.mine.discover'))))
        : el('p', { class: 'hint' }, t('scenes.mine.offline')));
      return;
    }
    server.replaceChildren(
      el('p', { class: 'actions scenes-actions' },
        el('a', { class: 'button primary', href: '/scenes/new' }, t('scenes.new')),
        el('a', { class: 'button', href: '/scenes' }, t('scenes.mine.discover'))),
      message, grid, more);
    await load(null);
  }

  /** @param {string | null} cursor */
  async function load(cursor) {
    grid.setAttribute('aria-busy', 'true');
    more.disabled = true;
    try {
      /** @type {{items: Scene[], next: string | null}} */
      const answer = await call('myScenes', { query: myScenesQuery({ cursor }) });
      if (signal.aborted) return;
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
      if (!signal.aborted) {
        message.replaceChildren(el('p', { class: 'form-error' }, describeError(error, t)),
          el('p', { class: 'actions' }, el('button', { type: 'button', onclick: () => void load(cursor) }, t('position.retry'))));
      }
    } finally {
      grid.removeAttribute('aria-busy');
      more.disabled = false;
    }
  }

  // What waits is redrawn as it changes; a scene that arrived joins the grid.
  const stopWatching = onSceneUploadEvent((event) => {
    if (signal.aborted || event.type === 'progress') return;
    void showWaiting();
    if (event.type === 'sent' && event.item.kind === 'scene') void showServer();
  });
  const online = () => { if (!signal.aborted) void showServer(); };
  window.addEventListener('online', online);

  await Promise.all([showWaiting(), showServer()]);
  return () => {
    stopWatching();
    window.removeEventListener('online', online);
    for (const url of thumbnails) URL.revokeObjectURL(url);
  };
}
