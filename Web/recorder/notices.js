// The in-app notice of the seed's Background Task: when the upload queue has stored routes, a
// notice says so ("1 route stored", "3 routes stored"); routes stored while it is still shown
// join it instead of stacking a second one. Tapping it opens the route (one) or the list
// (several), or the recording screen while a recording runs. The shell starts this once.
import { t } from '../app/i18n.js';
import { el } from '../app/dom.js';
import { startRouteSync, unfinishedRoute } from './routes.js';

/**
 * The window event pages listen to when the phone's routes changed under them (stored by the
 * queue); its `detail.stored` lists the local ids of the routes just stored.
 */
export const ROUTES_CHANGED = 'waymark:routes-changed';

/** @param {string[]} stored */
const changed = (stored) => new CustomEvent(ROUTES_CHANGED, { detail: { stored } });

/**
 * Whether a ROUTES_CHANGED event says that the route `id` was stored.
 * @param {Event} event @param {string} id
 */
export function wasStored(event, id) {
  const stored = /** @type {CustomEvent<{stored?: unknown}>} */ (event).detail?.stored;
  return Array.isArray(stored) && stored.includes(id);
}
/** How long the notice stays (ms) after the last route it counts. */
export const NOTICE_MS = 10000;

/**
 * The notice's words for `count` stored routes.
 * @param {number} count
 */
export function storedText(count) {
  return count === 1 ? t('routes.stored.one') : t('routes.stored.many', { count });
}

/**
 * Where a tap on the notice leads (seed: the route, unless another route is being recorded).
 * @param {string[]} ids the local ids of the routes the notice counts
 * @param {boolean} recording whether a route is being recorded now
 */
export function noticeTarget(ids, recording) {
  if (recording) return '/record';
  if (ids.length === 1) return `/routes/${encodeURIComponent(ids[0])}`;
  return '/routes';
}

/**
 * Starts the route queue and shows its grouped notices.
 * @param {(path: string) => void} navigate the router's navigate
 * @returns {{stop: () => void}}
 */
export function startRouteNotices(navigate) {
  /** @type {string[]} */
  let ids = [];
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const button = el('button', { type: 'button', class: 'route-notice-button' });
  const region = el('div', { id: 'route-notice', class: 'route-notice', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
  document.body.append(region);

  const hide = () => { clearTimeout(timer); ids = []; region.replaceChildren(); };
  button.addEventListener('click', async () => {
    const chosen = ids;
    hide();
    let recording = false;
    try { recording = (await unfinishedRoute()) !== null; } catch { /* no recording known */ }
    navigate(noticeTarget(chosen, recording));
  });

  /** @param {Array<{id: string}>} routes */
  const onStored = (routes) => {
    const fresh = routes.map((route) => route.id).filter((id) => !ids.includes(id));
    if (fresh.length === 0) return;
    ids = [...ids, ...fresh];
    button.textContent = storedText(ids.length);
    if (!button.isConnected) region.replaceChildren(button);
    clearTimeout(timer);
    timer = setTimeout(hide, NOTICE_MS);
  };
  // The pages showing routes redraw their statuses after a drain that changed something.
  /** @param {{stored: Array<{id: string}>, deleted: number, failed: number}} result */
  const onDrained = (result) => {
    if (result.stored.length > 0 || result.deleted > 0 || result.failed > 0) window.dispatchEvent(changed(result.stored.map((route) => route.id)));
  };
  const sync = startRouteSync({ onStored, onDrained });
  // Routes the service worker stored by Background Sync (no page was uploading them).
  /** @param {MessageEvent} event */
  const onMessage = (event) => {
    const data = event.data;
    if (!data || data.type !== 'waymark-routes-stored' || !Array.isArray(data.routes)) return;
    const ids = data.routes.filter(/** @param {unknown} id */ (id) => typeof id === 'string');
    onStored(ids.map(/** @param {string} id */ (id) => ({ id })));
    window.dispatchEvent(changed(ids));
  };
  navigator.serviceWorker?.addEventListener('message', onMessage);
  return {
    stop: () => {
      hide(); sync.stop(); region.remove();
      navigator.serviceWorker?.removeEventListener('message', onMessage);
    },
  };
}
