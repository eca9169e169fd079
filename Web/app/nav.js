// The bottom bar and its "More" sheet (issue #33 point 1): four modules of the person's job and
// More, which opens a sheet listing every module with an icon and a line saying what it is for.
// The shell draws both again when the job or the language changes, and marks the module of the
// page shown (aria-current on its links; More shows that the page is one of its own).
import { t } from './i18n.js';
import { el } from './dom.js';
import { icon } from './icons.js';
import { MODULES, DEFAULT_JOB, barModules, moduleOfPage } from './jobs.js';

/** @typedef {import('./jobs.js').JobId} JobId */
/** @typedef {import('./jobs.js').ModuleId} ModuleId */

/** @type {JobId} */
let job = DEFAULT_JOB;
/** @type {ModuleId | null} */
let current = null;
/** @type {HTMLDialogElement | null} */
let sheet = null;

/**
 * Draws the bar into the page's `nav.app-bar` for `shown` (and the sheet, closed).
 * @param {JobId} shown
 */
export function drawNavigation(shown) {
  job = shown;
  const bar = document.querySelector('nav.app-bar');
  if (!bar) return;
  bar.setAttribute('aria-label', t('nav.label'));
  const more = el('button', { type: 'button', class: 'app-bar-item app-bar-more', 'aria-haspopup': 'dialog', onclick: openSheet },
    icon('more'), el('span', { class: 'app-bar-label' }, t('nav.more')));
  bar.replaceChildren(el('ul', {},
    ...barModules(job).map((module) => el('li', {},
      el('a', { class: 'app-bar-item', href: module.path, 'data-module': module.id },
        icon(module.id), el('span', { class: 'app-bar-label' }, t(module.name))))),
    el('li', {}, more)));
  drawSheet();
  mark();
}

/**
 * Marks the module the page of `pattern` belongs to.
 * @param {string | null} pattern the page's pattern from pages.json, null for "not found"
 */
export function markCurrentModule(pattern) {
  current = moduleOfPage(pattern);
  if (sheet?.open) sheet.close();
  mark();
}

function mark() {
  for (const link of document.querySelectorAll('nav.app-bar a[data-module], .more-sheet a[data-module]')) {
    if (link.getAttribute('data-module') === current) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const onBar = current !== null && barModules(job).some((module) => module.id === current);
  document.querySelector('.app-bar-more')?.classList.toggle('holds-current', current !== null && !onBar);
}

function drawSheet() {
  const wasOpen = sheet?.open ?? false;
  sheet?.remove();
  const close = el('button', { type: 'button', class: 'more-sheet-close', 'aria-label': t('nav.more.close'), onclick: () => sheet?.close() }, icon('close'));
  sheet = el('dialog', { class: 'more-sheet', 'aria-labelledby': 'more-sheet-heading' },
    el('div', { class: 'more-sheet-body' },
      el('div', { class: 'more-sheet-top' }, el('h2', { id: 'more-sheet-heading' }, t('nav.more.heading')), close),
      el('ul', { class: 'module-list' },
        ...MODULES.map((module) => el('li', {},
          el('a', { href: module.path, 'data-module': module.id },
            icon(module.id),
            el('span', { class: 'module-name' }, t(module.name)),
            el('span', { class: 'module-line' }, t(module.line))))))));
  // A module chosen closes the sheet (the router then shows it); so does a tap on the dimmed
  // page around the sheet, as Escape does. The body fills the dialog, so only the backdrop
  // is the dialog itself.
  sheet.addEventListener('click', (event) => {
    const target = /** @type {Element} */ (event.target);
    if (target === sheet || target.closest('a')) sheet?.close();
  });
  document.body.append(sheet);
  if (wasOpen) sheet.showModal();
}

function openSheet() {
  if (sheet && !sheet.open) sheet.showModal();
}
