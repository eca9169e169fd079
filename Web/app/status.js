// The shell's aria-live region: short messages such as "Signed out." that a screen reader
// reads without moving focus, shown for a few seconds; the offline notice; and the notice of an
// insecure page.
import { t } from './i18n.js';
import { el } from './dom.js';

/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;
/**
 * The message shown now; aborted when it leaves the screen.
 * @type {AbortController | null}
 */
let shown = null;

/**
 * Shows and announces `text` in the status region, for eight seconds or until another message
 * takes its place, or sooner: as soon as `until` is aborted, because what the message said is no
 * longer so ("… sent when the phone is online" once it has been sent).
 * @param {string} text
 * @param {{until?: AbortSignal}} [options]
 * @returns {AbortSignal} aborted when the message has left the screen, for listeners that only
 *   matter while it is shown
 */
export function announce(text, options = {}) {
  const { until } = options;
  const mine = new AbortController();
  const region = document.getElementById('status');
  if (!region || until?.aborted) { mine.abort(); return mine.signal; }
  const leave = () => {
    if (shown !== mine) return;
    clearTimeout(timer);
    region.textContent = '';
    shown = null;
    mine.abort();
  };
  clearTimeout(timer);
  shown?.abort();
  shown = mine;
  region.textContent = '';
  // A fresh text node after clearing makes screen readers announce a repeated message again.
  requestAnimationFrame(() => { if (shown === mine) region.textContent = text; });
  timer = setTimeout(leave, 8000);
  until?.addEventListener('abort', leave, { once: true, signal: mine.signal });
  return mine.signal;
}

/** Keeps the offline notice (#offline) in step with the browser's connection. */
export function watchConnection() {
  const notice = document.getElementById('offline');
  if (!notice) return;
  const update = () => { notice.hidden = navigator.onLine; };
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
  update();
}

/**
 * On a page that is not a secure context (plain HTTP under a name other than this device's own,
 * e.g. a phone at http://192.168.1.5:8080/), the browser withholds the position, the camera,
 * encryption (crypto.subtle) and the service worker: the notice (#insecure) says so at once,
 * in the chosen language, and links to the HTTPS address and to /pair. Drawn again when the
 * language changes.
 * @param {{isSecureContext: boolean, hostname: string}} [where] for tests; the page's own by default
 */
export function showInsecureNotice(where = { isSecureContext: window.isSecureContext, hostname: location.hostname }) {
  const notice = document.getElementById('insecure');
  if (!notice) return;
  notice.hidden = where.isSecureContext;
  if (where.isSecureContext) return;
  const name = where.hostname.includes(':') ? `[${where.hostname}]` : where.hostname;
  const secure = `https://${name}/`;
  notice.replaceChildren(
    el('strong', {}, t('insecure.heading')), ' ', t('insecure.text'), ' ',
    el('a', { href: secure }, t('insecure.https', { address: secure })), ' · ',
    el('a', { href: '/pair' }, t('insecure.pair')));
}
