// The shell: picks the language, translates the static page, starts the router, keeps the
// language switch and the navigation in step, and registers the service worker.
import * as i18n from './i18n.js';
import { startRouter } from './router.js';
import { watchConnection } from './status.js';
import { uploads } from '../photos/uploads.js';
import { sceneUploads } from '../scenes/uploads.js';
import { startRouteNotices } from '../recorder/notices.js';

/** @typedef {import('./router.js').Page} Page */
/** @typedef {import('./router.js').PageModule} PageModule */
/** @typedef {import('./router.js').Match} Match */
/** @typedef {import('./router.js').PageContext} PageContext */

const root = /** @type {HTMLElement} */ (document.getElementById('main'));
/** @type {(() => void) | null} */
let cleanup = null;
/** @type {string | null} */
let titleKey = null;

/**
 * Draws the page of `match` into <main>.
 * @param {Match | null} match
 * @param {PageContext} context
 */
async function renderPage(match, context) {
  const modulePath = match ? match.page.module : '/app/pages/not-found.js';
  markCurrentLink(match ? match.page.path : null);
  /** @type {PageModule} */
  let page;
  try {
    page = await import(modulePath);
  } catch (error) {
    console.warn('Waymark: could not load', modulePath, error);
    titleKey = null;
    root.replaceChildren(Object.assign(document.createElement('p'), { className: 'page-error', textContent: i18n.t('page.failed') }));
    return;
  }
  if (cleanup) { cleanup(); cleanup = null; }
  titleKey = page.titleKey;
  setTitle();
  const result = await page.render(root, context);
  if (typeof result === 'function') cleanup = result;
}

function setTitle() {
  document.title = titleKey ? `${i18n.t(titleKey)} · ${i18n.t('app.name')}` : i18n.t('app.name');
}

/** @param {string | null} path the pattern of the page shown */
function markCurrentLink(path) {
  for (const link of document.querySelectorAll('header nav a')) {
    if (link.getAttribute('href') === path) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

function markLanguage() {
  for (const button of document.querySelectorAll('button[data-language]')) {
    button.setAttribute('aria-pressed', String(button.getAttribute('data-language') === i18n.language()));
  }
}

async function start() {
  await i18n.load(i18n.initialLanguage());
  i18n.apply(document);
  markLanguage();
  watchConnection();

  const response = await fetch('/app/pages.json');
  /** @type {Page[]} */
  const pages = await response.json();
  // SRR-19: until a recording is stopped, the app opens on it (and comes back to it).
  // Loaded when needed, so that the shell starts even where the recorder's files cannot be had.
  const recording = await import('../recorder/ui/resume.js').catch(() => null);
  if (recording && location.pathname === '/' && await recording.hasUnfinishedRecording()) history.replaceState(null, '', '/record');
  const router = startRouter({ root, pages, render: renderPage });
  recording?.returnToRecording(router.navigate);

  for (const button of document.querySelectorAll('button[data-language]')) {
    button.addEventListener('click', () => {
      const language = /** @type {import('./i18n.js').Language} */ (button.getAttribute('data-language'));
      if (language !== i18n.language()) void i18n.switchTo(language);
    });
  }
  i18n.onChange(() => {
    i18n.apply(document);
    markLanguage();
    setTitle();
    void router.refresh();
  });
  await router.refresh();
  // Photos that waited for the network go now (and whenever it comes back), on any page.
  uploads();
  // So do scenes and rephotographs kept on the phone (a scene camera's upload without a network).
  sceneUploads();
  // Routes recorded on this phone go the same way; "3 routes stored" when they are on the server.
  startRouteNotices(router.navigate);

  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('/app/sw.js', { scope: '/', type: 'module' })
      .catch((error) => console.warn('Waymark: no offline support:', error));
  }
}

void start();
