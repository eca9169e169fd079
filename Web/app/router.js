// Which page a URL shows. The list of pages is /app/pages.json, the same file the server reads
// to decide which paths answer with the shell, so the two never disagree. matchPage is pure
// and unit-tested against that file; startRouter wires it to links, history and <main>.

/** @typedef {{path: string, module: string}} Page */
/** @typedef {{page: Page, params: Record<string, string>}} Match */
/**
 * What a page module exports: render draws the page into root and may return a cleanup
 * function, called before the next page is drawn.
 * @typedef {{titleKey: string, render: (root: HTMLElement, context: PageContext) => (void | (() => void) | Promise<void | (() => void)>)}} PageModule
 * @typedef {{params: Record<string, string>, navigate: (path: string) => void, refresh: () => void}} PageContext
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
 * Whether a click on this link should stay in the app instead of loading a new document.
 * @param {{href: string, target: string, hasDownload: boolean, modified: boolean, button: number}} link
 * @param {string} origin location.origin
 * @param {readonly Page[]} pages
 */
export function handlesLink(link, origin, pages) {
  if (link.button !== 0 || link.modified || link.hasDownload || (link.target !== '' && link.target !== '_self')) return false;
  const url = new URL(link.href, origin);
  return url.origin === origin && matchPage(pages, url.pathname) !== null;
}

/**
 * Starts the app's navigation: draws the page for the current URL, follows same-origin links
 * with history.pushState, and redraws on back/forward.
 * @param {{root: HTMLElement, pages: Page[], render: (match: Match | null, context: PageContext) => Promise<void>}} options
 */
export function startRouter({ root, pages, render }) {
  let generation = 0;
  const show = async () => {
    const mine = ++generation;
    const match = matchPage(pages, location.pathname);
    /** @type {PageContext} */
    const context = { params: match ? match.params : {}, navigate, refresh: show };
    if (mine === generation) await render(match, context);
  };
  /** @param {string} path */
  function navigate(path) {
    if (path !== location.pathname + location.search + location.hash) history.pushState(null, '', path);
    void show().then(() => focusMain(root));
  }
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(target instanceof HTMLAnchorElement) || event.defaultPrevented) return;
    const link = {
      href: target.href, target: target.target, hasDownload: target.hasAttribute('download'),
      modified: event.metaKey || event.ctrlKey || event.shiftKey || event.altKey, button: event.button,
    };
    if (!handlesLink(link, location.origin, pages)) return;
    event.preventDefault();
    const url = new URL(target.href);
    navigate(url.pathname + url.search + url.hash);
  });
  window.addEventListener('popstate', () => void show());
  return { refresh: show, navigate };
}

/**
 * After a navigation, focus goes to the new page's heading (or <main>), so a screen reader
 * announces it and the keyboard starts there.
 * @param {HTMLElement} root
 */
function focusMain(root) {
  const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (target) { target.scrollIntoView(); return; }
  const heading = root.querySelector('h1');
  const focusable = heading instanceof HTMLElement ? heading : root;
  focusable.setAttribute('tabindex', '-1');
  focusable.focus();
  window.scrollTo(0, 0);
}
