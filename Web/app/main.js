// The shell: picks the language, translates the static page, starts the router, keeps the
// language switch and the bottom bar in step, and registers the service worker.
import * as i18n from './i18n.js';
import { startRouter } from './router.js';
import { watchConnection, showInsecureNotice } from './status.js';
import { currentUser, onUserChange, tasksGiven } from './session.js';
import { chosenJob, onJobChange, suggestedJob, DEFAULT_JOB } from './jobs.js';
import { drawNavigation, markCurrentModule } from './nav.js';
import { uploads } from '../photos/uploads.js';
import { sceneUploads } from '../scenes/uploads.js';
import { startRouteNotices } from '../recorder/notices.js';

/** @typedef {import('./router.js').Page} Page */
/** @typedef {import('./router.js').PageModule} PageModule */
/** @typedef {import('./router.js').Match} Match */
/** @typedef {import('./router.js').PageContext} PageContext */

/** The <main> the page shown draws into. Each drawing gets a new one (see `freshMain`). */
let root = /** @type {HTMLElement} */ (document.getElementById('main'));
/** @type {(() => void) | null} */
let cleanup = null;
/** @type {string | null} */
let titleKey = null;
/** The job whose modules the bar shows. @type {import('./jobs.js').JobId} */
let barJob = chosenJob() ?? DEFAULT_JOB;

/**
 * Puts an empty <main> where the last one was and returns it. A page that is left while it is
 * still drawing (it awaits the network, a permission, a module) keeps its own <main>, now out
 * of the document, so what it draws afterwards is never seen and never covers the next page.
 */
function freshMain() {
  const next = document.createElement('main');
  next.id = 'main';
  next.tabIndex = -1;
  root.replaceWith(next);
  root = next;
  return next;
}

/**
 * Draws the page of `match` into a fresh <main>, unless another navigation overtakes it.
 * @param {Match | null} match
 * @param {Omit<PageContext, 'title'>} shown
 */
async function renderPage(match, shown) {
  const { signal } = shown;
  const modulePath = match ? match.page.module : '/app/pages/not-found.js';
  markCurrentModule(match ? match.page.path : null);
  /** @type {PageModule | null} */
  let page = null;
  try {
    page = await import(modulePath);
  } catch (error) {
    console.warn('Waymark: could not load', modulePath, error);
  }
  if (signal.aborted) return;
  if (cleanup) { cleanup(); cleanup = null; }
  titleKey = page ? page.titleKey : null;
  setTitle();
  if (!page) {
    freshMain().replaceChildren(Object.assign(document.createElement('p'), { className: 'page-error', textContent: i18n.t('page.failed') }));
    return;
  }
  /** @type {PageContext} */
  const context = { ...shown, title: (name) => { if (!signal.aborted) showTitle(name); } };
  const main = freshMain();
  // Busy while the page draws: a screen reader waits for it, and so do the browser tests.
  main.setAttribute('aria-busy', 'true');
  /** @type {void | (() => void)} */
  let result;
  try {
    result = await page.render(main, context);
  } finally {
    main.removeAttribute('aria-busy');
  }
  if (typeof result !== 'function') return;
  if (signal.aborted) result();
  else cleanup = result;
}

function setTitle() {
  showTitle(titleKey ? i18n.t(titleKey) : null);
}

/** @param {string | null} name the page's name in the title bar, before the app's */
function showTitle(name) {
  document.title = name ? `${name} · ${i18n.t('app.name')}` : i18n.t('app.name');
}

/**
 * Until a job is chosen, the bar follows the account: field inspection for an officer or for
 * someone given a task, photos for everyone else.
 */
async function followAccount() {
  if (chosenJob()) return;
  const user = await currentUser();
  const suggested = suggestedJob(user, await tasksGiven(user));
  if (chosenJob() || suggested === barJob) return;
  barJob = suggested;
  drawNavigation(barJob);
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
  drawNavigation(barJob);
  showInsecureNotice();
  watchConnection();

  const response = await fetch('/app/pages.json');
  /** @type {Page[]} */
  const pages = await response.json();
  // SRR-19: until a recording is stopped, the app opens on it (and comes back to it).
  // Loaded when needed, so that the shell starts even where the recorder's files cannot be had.
  const recording = await import('../recorder/ui/resume.js').catch(() => null);
  if (recording && location.pathname === '/' && await recording.hasUnfinishedRecording()) history.replaceState(null, '', '/record');
  // A newcomer opens on the first screen, until a job is chosen there or in Account.
  if (location.pathname === '/' && !chosenJob()) history.replaceState(null, '', '/welcome');
  const router = startRouter({ pages, render: renderPage });
  recording?.returnToRecording(router.navigate);

  for (const button of document.querySelectorAll('button[data-language]')) {
    button.addEventListener('click', () => {
      const language = /** @type {import('./i18n.js').Language} */ (button.getAttribute('data-language'));
      if (language !== i18n.language()) void i18n.switchTo(language);
    });
  }
  onJobChange((job) => { barJob = job; drawNavigation(barJob); });
  const follow = () => followAccount().catch((error) => console.warn('Waymark: the bar could not follow the account:', error));
  onUserChange(follow);
  void follow();
  i18n.onChange(() => {
    i18n.apply(document);
    markLanguage();
    drawNavigation(barJob);
    showInsecureNotice();
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
