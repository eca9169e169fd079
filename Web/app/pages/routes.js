// `/routes` (seed 000's Home, SHO-01…08): the routes recorded on this phone, newest first, each
// with its date and time, distance and duration and whether it is queued or stored; a long
// press (or the row's checkbox) selects rows, "Selected n" with Cancel and Delete (with
// confirmation; the server's copies are deleted by the queue); a tap opens the route; the
// floating Start button records a new one. The icons are drawn here as SVG (no icon font, no
// inline markup) and shared with the route's page.
import { t, formatDate } from '../i18n.js';
import { el } from '../dom.js';
import { announce } from '../status.js';
import { icon } from '../icons.js';
import { listRoutes, deleteRoutes } from '../../recorder/routes.js';
import { formatDuration } from '../../recorder/engine.js';
import { ROUTES_CHANGED } from '../../recorder/notices.js';
import { cloudStatus, failureReason, statusIcon, distanceText, preferredUnits, confirmDelete } from '../../recorder/ui/route-parts.js';

/** @typedef {import('../../recorder/ui/route-parts.js').RouteSummary} RouteSummary */

export const titleKey = 'routes.title';

/** How long a press must be held to select a row (SHO-03). */
export const LONG_PRESS_MS = 500;
/** A finger that moves further than this (px) scrolls: no long press. */
const SLOP = 10;

/**
 * @param {HTMLElement} root
 * @param {import('../router.js').PageContext} context
 */
export async function render(root, { signal }) {
  /** @type {Set<string>} */
  const selected = new Set();
  /** @type {RouteSummary[]} */
  let routes = [];
  /**
   * What the rows show now (see load); null when nothing is drawn.
   * @type {string | null}
   */
  let drawn = null;
  const units = await preferredUnits();

  const heading = el('h1', { class: 'routes-title', 'aria-live': 'polite' }, t('routes.heading'));
  const leading = el('span', { class: 'routes-leading' });
  const trailing = el('span', { class: 'routes-trailing' });
  const bar = el('div', { class: 'routes-bar' }, leading, heading, trailing);
  const list = el('ul', { class: 'route-list', 'aria-label': t('routes.listLabel') });
  const empty = el('p', { class: 'route-empty', hidden: true }, t('routes.empty'));
  const hint = el('p', { class: 'hint routes-hint', hidden: true }, t('routes.selectHint'));
  const start = el('a', { class: 'button primary fab route-start', href: '/record' }, icon('start'), el('span', {}, t('routes.start')));
  root.replaceChildren(bar, hint, list, empty, start);

  const menu = el('a', { class: 'icon-button', href: '/settings', 'aria-label': t('routes.menu'), title: t('routes.menu') }, icon('menu'));
  const cancel = el('button', { type: 'button', class: 'icon-button', 'aria-label': t('routes.cancel'), title: t('routes.cancel') }, icon('close'));
  const remove = el('button', { type: 'button', class: 'icon-button danger', 'aria-label': t('routes.delete'), title: t('routes.delete') }, icon('delete'));
  cancel.addEventListener('click', () => { selected.clear(); update(); });
  remove.addEventListener('click', async () => {
    const ids = routes.filter((route) => selected.has(route.id)).map((route) => route.id);
    if (ids.length === 0) return;
    const question = ids.length === 1 ? t('routes.delete.confirmOne') : t('routes.delete.confirmMany', { count: ids.length });
    if (!await confirmDelete(root, question)) return;
    try {
      await deleteRoutes(ids);
    } catch (error) {
      console.warn('Waymark: could not delete routes:', error);
      announce(t('routes.delete.failed'));
      return;
    }
    selected.clear();
    announce(ids.length === 1 ? t('routes.deleted.one') : t('routes.deleted.many', { count: ids.length }));
    await load();
  });

  /** Draws the header (SHO-03/05) and the rows' selection from `selected`. */
  function update() {
    const selecting = selected.size > 0;
    heading.textContent = selecting ? t('routes.selected', { count: selected.size }) : t('routes.heading');
    leading.replaceChildren(selecting ? cancel : menu);
    trailing.replaceChildren(selecting ? remove : '');
    hint.hidden = !selecting;
    root.classList.toggle('selecting', selecting);
    for (const row of list.querySelectorAll('li[data-route]')) {
      const on = selected.has(row.getAttribute('data-route') ?? '');
      row.classList.toggle('selected', on);
      const box = row.querySelector('input[type=checkbox]');
      if (box instanceof HTMLInputElement) box.checked = on;
    }
  }

  /** @param {string} id */
  function toggle(id) {
    if (selected.has(id)) selected.delete(id);
    else selected.add(id);
    update();
  }

  /** @param {RouteSummary} route */
  function row(route) {
    const when = formatDate(new Date(route.startedAt * 1000));
    const detailParts = [distanceText(route.distance ?? 0, units), formatDuration(route.elapsed ?? 0)];
    const box = el('input', { type: 'checkbox', class: 'route-check', 'aria-label': t('routes.select', { when }) });
    // The route being recorded opens the recording screen, where it goes on (or is stopped).
    const href = route.status === 'recording' ? '/record' : `/routes/${encodeURIComponent(route.id)}`;
    const link = el('a', { class: 'route-link', href, draggable: 'false' },
      el('span', { class: 'route-when' }, el('time', { datetime: new Date(route.startedAt * 1000).toISOString() }, when)),
      el('span', { class: 'route-detail' }, detailParts.join(' · ')),
      failureReason(route) !== null ? el('span', { class: 'route-failure' }, t('routes.failed', { reason: failureReason(route) ?? '' })) : null,
      statusIcon(route));
    const item = el('li', { class: 'route-row', 'data-route': route.id }, box, link);
    box.addEventListener('change', () => { if (box.checked !== selected.has(route.id)) toggle(route.id); });

    // Long press (SHO-03): held still for LONG_PRESS_MS selects; the click that ends it does nothing more.
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    let pressed = false;
    let origin = { x: 0, y: 0 };
    const stop = () => { clearTimeout(timer); timer = undefined; };
    link.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      pressed = false;
      origin = { x: event.clientX, y: event.clientY };
      stop();
      timer = setTimeout(() => {
        timer = undefined;
        pressed = true;
        if (!selected.has(route.id)) toggle(route.id);
        if (navigator.vibrate) navigator.vibrate(20);
      }, LONG_PRESS_MS);
    });
    link.addEventListener('pointermove', (event) => {
      if (timer !== undefined && Math.hypot(event.clientX - origin.x, event.clientY - origin.y) > SLOP) stop();
    });
    for (const type of ['pointerup', 'pointercancel', 'pointerleave']) link.addEventListener(type, stop);
    // A phone's own long-press menu (open in new tab, …) would cover the selection.
    link.addEventListener('contextmenu', (event) => event.preventDefault());
    link.addEventListener('click', (event) => {
      if (pressed) { pressed = false; event.preventDefault(); return; }
      // While selecting, a tap adds or removes the row (SHO-04) instead of opening it.
      if (selected.size > 0) { event.preventDefault(); toggle(route.id); }
    });
    // The keyboard's long press: Shift+Enter or Shift+Space on the row selects it.
    link.addEventListener('keydown', (event) => {
      if (event.shiftKey && (event.key === 'Enter' || event.key === ' ')) { event.preventDefault(); toggle(route.id); }
    });
    return item;
  }

  async function load() {
    try {
      routes = await listRoutes();
    } catch (error) {
      console.warn('Waymark: could not read the routes:', error);
      if (signal.aborted) return;
      list.replaceChildren();
      drawn = null;
      empty.textContent = t('routes.unreadable');
      empty.hidden = false;
      return;
    }
    if (signal.aborted) return;
    const known = new Set(routes.map((route) => route.id));
    for (const id of [...selected]) if (!known.has(id)) selected.delete(id);
    // Drawn again only when something shown changed, so a press under way is not cut short.
    const look = routes.map((route) => [route.id, cloudStatus(route), failureReason(route), route.distance, route.elapsed].join(' ')).join('\n');
    if (look !== drawn) list.replaceChildren(...routes.map(row));
    drawn = look;
    empty.textContent = t('routes.empty');
    empty.hidden = routes.length > 0;
    list.hidden = routes.length === 0;
    update();
  }

  const onChanged = () => { void load(); };
  window.addEventListener(ROUTES_CHANGED, onChanged);
  /** @param {KeyboardEvent} event */
  const onKey = (event) => {
    if (event.key === 'Escape' && selected.size > 0 && !document.querySelector('dialog[open]')) { selected.clear(); update(); }
  };
  document.addEventListener('keydown', onKey);
  await load();
  return () => {
    root.classList.remove('selecting');
    window.removeEventListener(ROUTES_CHANGED, onChanged);
    document.removeEventListener('keydown', onKey);
  };
}
