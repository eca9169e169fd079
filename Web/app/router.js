// Which page a URL shows. The list of pages is /app/pages.json, the same file the server reads
// to decide which paths answer with the shell, so the two never disagree. matchPage is pure
// and unit-tested against that file; startRouter wires it to links, history and <main>.

/** @typedef {{path: string, module: string}} Page */
/** @typedef {{page: Page, params: Record<string, string>}} Match */
/**
 * What a page module exports: render draws the page into root and may return a cleanup
 * function, called before the next page is drawn (or at once, if another navigation overtook
 * the page while it was still drawing).
 * @typedef {{titleKey: string, render: (root: HTMLElement, context: PageContext) => (void | (() => void) | Promise<void | (() => void)>)}} PageModule
 * What a page is given besides its root. `signal` is aborted when another navigation (a link,
 * back or forward, a language switch) starts before this page is done; `title` names the page
 * in the browser's title bar, and does nothing once the page has been left.
 * @typedef {{params: Record<string, string>, navigate: (path: string) => void, refresh: () => void, signal: AbortSignal, title: (name: string) => void}} PageContext
 */

/**
 * The parameters of `pathname` if it matches `pattern` (`/photos/:id`), else null.
 * Segments are compared after percent-decoding; a trailing slash is ignored (except for `/`).
 * @param {string} pattern
 * @param {string} pathname
 * @returns {Record<string, string> | null}
 */
export function matchPath(pattern, pathname) {
  const split = /** @param {string} path */ (path) => path.split('/').filter((segment) => segment !== '');
  const want = split(pattern);
  const have = split(pathname);
  if (want.length !== have.length) return null;
  /** @type {Record<string, string>} */
  const params = {};
  for (let index = 0; index < want.length; index++) {
    let segment;
    try { segment = decodeURIComponent(have[index]); } catch { return null; }
    const expected = want[index];
    if (expected.startsWith(':')) params[expected.slice(1)] = segment;
    else if (expected !== segment) return null;
  }
  return params;
}

/**
 * The first page whose path matches `pathname`.
 * @param {readonly Page[]} pages
 * @param {string} pathname
 * @returns {Match | null}
 */
export function matchPage(pages, pathname) {
  for (const page of pages) {
    const params = matchPath(page.path, pathname);
    if (params) return { page, params };
  }
  return null;
}

/**
 * Whether a click on this link should stay in the app instead of loading a new document. A link
 * to a place on the page shown (the skip link, `#sign-up` on /account) is left to the browser,
 * which scrolls there without drawing the page again.
 * @param {{href: string, target: string, hasDownload: boolean, modified: boolean, button: number}} link
 * @param {{origin: string, pathname: string, search: string}} here where the app is (location)
 * @param {readonly Page[]} pages
 */
export function handlesLink(link, here, pages) {
  if (link.button !== 0 || link.modified || link.hasDownload || (link.target !== '' && link.target !== '_self')) return false;
  const url = new URL(link.href, here.origin + here.pathname + here.search);
  if (url.hash !== '' && url.pathname === here.pathname && url.search === here.search) return false;
  return url.origin === here.origin && matchPage(pages, url.pathname) !== null;
}

/**
 * Starts the app's navigation: draws the page for the current URL, follows same-origin links
 * with history.pushState, and redraws on back/forward. Each drawing gets its own signal, aborted
 * when the next one starts: a page still loading or drawing when it is left must not draw over
 * the page that replaced it.
 * @param {{pages: Page[], render: (match: Match | null, context: Omit<PageContext, 'title'>) => Promise<void>}} options
 */
export function startRouter({ pages, render }) {
  /** @type {AbortController | null} */
  let drawing = null;
  /** The path and query of the page drawn last: the hash alone is a place on it. */
  let drawn = '';
  /** Draws the page of the current URL; true if it is still the one shown when it is done. */
  const show = async () => {
    drawn = location.pathname + location.search;
    drawing?.abort();
    const mine = new AbortController();
    drawing = mine;
    const match = matchPage(pages, location.pathname);
    await render(match, { params: match ? match.params : {}, navigate, refresh: show, signal: mine.signal });
    return !mine.signal.aborted;
  };
  /** @param {string} path */
  function navigate(path) {
    if (path !== location.pathname + location.search + location.hash) history.pushState(null, '', path);
    void show().then((shown) => { if (shown) focusMain(); });
  }
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(target instanceof HTMLAnchorElement) || event.defaultPrevented) return;
    const link = {
      href: target.href, target: target.target, hasDownload: target.hasAttribute('download'),
      modified: event.metaKey || event.ctrlKey || event.shiftKey || event.altKey, button: event.button,
    };
    if (!handlesLink(link, location, pages)) return;
    event.preventDefault();
    const url = new URL(target.href);
    navigate(url.pathname + url.search + url.hash);
  });
  window.addEventListener('popstate', () => { if (location.pathname + location.search !== drawn) void show(); });
  return { refresh: show, navigate };
}

/**
 * After a navigation, focus goes to the new page's heading (or <main>), so a screen reader
 * announces it and the keyboard starts there.
 */
function focusMain() {
  const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (target) { target.scrollIntoView(); return; }
  const root = document.getElementById('main');
  if (!root) return;
  const heading = root.querySelector('h1');
  const focusable = heading instanceof HTMLElement ? heading : root;
  focusable.setAttribute('tabindex', '-1');
  focusable.focus();
  window.scrollTo(0, 0);
}
