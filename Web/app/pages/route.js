// `/routes/:id` (seed 000's Route details, SRD-01…10): when the route was recorded, its cloud
// status, Delete (with confirmation; the server's copy is deleted by the queue), the distance
// (a tap switches metric/imperial) and the time, the tracks on a Leaflet map (a dashed line
// where the recording has a hole), the map type chooser (Roadmap, Terrain, Satellite from the
// server's configured tiles) and the Key button that shows the server's route id only while held.
import { t, formatDate, language } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { announce } from '../status.js';
import { getRoute, deleteRoutes, retryRoute, syncNow } from '../../recorder/routes.js';
import { formatDuration } from '../../recorder/engine.js';
import { ROUTES_CHANGED } from '../../recorder/notices.js';
import { loadLeaflet, mapSources, tileLayer } from '../../photos/leaflet.js';
import { icon } from '../icons.js';
import { statusIcon, distanceText, preferredUnits, confirmDelete, failureReason } from '../../recorder/ui/route-parts.js';

/** @typedef {import('../router.js').PageContext} PageContext */
/** @typedef {import('../../recorder/ui/route-parts.js').RouteSummary} RouteSummary */
/** @typedef {{latitude: number, longitude: number}} Point */
/** @typedef {import('../../photos/leaflet.js').TileSource} Tiles */
/** @typedef {import('../../photos/leaflet.js').MapType} MapType */

export const titleKey = 'route.title';

/** @type {readonly MapType[]} */
export const MAP_TYPES = ['roadmap', 'terrain', 'satellite'];
const MAP_TYPE_KEY = 'waymark.mapType';
const TYPE_NAMES = { roadmap: 'route.type.roadmap', terrain: 'route.type.terrain', satellite: 'route.type.satellite' };

/** @returns {MapType} */
function rememberedType() {
  /** @type {string | null} */
  let value = null;
  try { value = localStorage.getItem(MAP_TYPE_KEY); } catch { /* storage may be off */ }
  return MAP_TYPES.find((type) => type === value) ?? 'roadmap';
}

/** @param {MapType} type */
function rememberType(type) {
  try { localStorage.setItem(MAP_TYPE_KEY, type); } catch { /* not remembered, still shown */ }
}

/**
 * The holes of a route to draw: the last point of each track joined to the first of the next.
 * @param {Point[][]} tracks
 * @returns {Array<[Point, Point]>}
 */
export function trackJoins(tracks) {
  const drawn = tracks.filter((track) => track.length > 0);
  /** @type {Array<[Point, Point]>} */
  const joins = [];
  for (let index = 1; index < drawn.length; index++) {
    joins.push([drawn[index - 1][drawn[index - 1].length - 1], drawn[index][0]]);
  }
  return joins;
}

/**
 * @param {HTMLElement} root
 * @param {PageContext} context
 */
export async function render(root, context) {
  const { signal } = context;
  const id = context.params.id ?? '';
  /** @type {(RouteSummary & {tracks: Point[][], trackCount?: number, fixCount?: number}) | null} */
  let route = null;
  try {
    route = await getRoute(id);
  } catch (error) {
    console.warn('Waymark: could not read the route:', error);
  }
  const back = el('a', { class: 'icon-button', href: '/routes', 'aria-label': t('route.back'), title: t('route.back') }, icon('back'));
  if (!route) {
    root.replaceChildren(
      el('div', { class: 'routes-bar' }, back, el('h1', { class: 'routes-title' }, t('route.notFound'))),
      el('p', {}, t('route.notFoundText')),
      el('p', {}, el('a', { href: '/routes' }, t('route.toList'))));
    return;
  }
  const shown = route;
  const when = formatDate(new Date(shown.startedAt * 1000));
  context.title(when);
  /** @type {'metric' | 'imperial'} */
  let units = await preferredUnits();

  // SRD-01: header with Arrow, date and time, Status and Delete.
  const remove = el('button', { type: 'button', class: 'icon-button danger', 'aria-label': t('route.delete'), title: t('route.delete') }, icon('delete'));
  const status = el('span', { class: 'route-status-slot' }, statusIcon(shown));
  const bar = el('div', { class: 'routes-bar' }, back,
    el('h1', { class: 'routes-title route-when-title' }, el('time', { datetime: new Date(shown.startedAt * 1000).toISOString() }, when)),
    el('span', { class: 'routes-trailing' }, status, remove));

  // The panel: Distance (a tap switches the units, SRD-05) and Time.
  const distanceValue = el('span', { class: 'panel-value' }, distanceText(shown.distance ?? 0, units));
  const unitsHint = el('span', { id: uniqueId('units'), class: 'visually-hidden' }, t('route.unitsHint'));
  const distance = el('button', { type: 'button', class: 'route-panel-item distance', 'aria-describedby': unitsHint.id },
    el('span', { class: 'panel-label' }, t('route.distance')), distanceValue);
  distance.addEventListener('click', () => {
    units = units === 'metric' ? 'imperial' : 'metric';
    distanceValue.textContent = distanceText(shown.distance ?? 0, units);
  });
  const panel = el('div', { class: 'route-panel' }, distance, unitsHint,
    el('div', { class: 'route-panel-item' },
      el('span', { class: 'panel-label' }, t('route.time')),
      el('span', { class: 'panel-value' }, formatDuration(shown.elapsed ?? 0))));

  const gaps = Array.isArray(shown.gaps) ? shown.gaps : [];
  const time = /** @param {number} seconds */ (seconds) => new Intl.DateTimeFormat(language(), { timeStyle: 'short' }).format(new Date(seconds * 1000));
  const gapNote = gaps.length > 0
    ? el('div', { class: 'route-gaps warning' },
        el('p', {}, gaps.length === 1 ? t('route.gaps.one') : t('route.gaps.many', { count: gaps.length })),
        el('ul', {}, ...gaps.map((gap) => el('li', {}, t('route.gap', { from: time(gap.from), to: time(gap.to) })))))
    : null;
  const reason = failureReason(shown);
  // A route the server refused for good waits until the person asks for another try.
  const retry = el('button', { type: 'button', class: 'retry-upload' }, t('route.retry'));
  retry.addEventListener('click', async () => {
    retry.disabled = true;
    try {
      await retryRoute(shown.id);
      announce(t('route.retried'));
      void syncNow();
      failure?.remove();
      shown.lastError = null;
      status.replaceChildren(statusIcon(shown));
    } catch (error) {
      console.warn('Waymark: could not queue the route again:', error);
      retry.disabled = false;
    }
  });
  const failure = reason !== null ? el('div', { class: 'route-refused' }, el('p', { class: 'form-error' }, t('routes.failed', { reason })), retry) : null;

  // The map with its floating buttons (SRD-06…10).
  const box = el('div', { class: 'map route-map', role: 'region', 'aria-label': t('route.mapLabel') });
  const message = el('p', { class: 'map-message', 'aria-live': 'polite', hidden: true });
  const mapButton = el('button', { type: 'button', class: 'fab-small map-type-button', 'aria-haspopup': 'true', 'aria-expanded': 'false' }, icon('layers'), el('span', {}, t('route.map')));
  const chooser = el('div', { class: 'map-types', role: 'group', 'aria-label': t('route.mapTypes'), hidden: true });
  const keyText = el('output', { class: 'route-key', hidden: true });
  const keyButton = el('button', { type: 'button', class: 'fab-small key-button' }, icon('key'), el('span', {}, t('route.key')));
  const page = el('div', { class: 'route-map-page' }, box,
    el('div', { class: 'route-map-controls' }, chooser, mapButton),
    el('div', { class: 'route-key-controls' }, keyText, keyButton),
    message);

  root.classList.add('route-main');
  root.replaceChildren(bar, panel, failure ?? '', gapNote ?? '', page);

  // Delete (SRD-04).
  remove.addEventListener('click', async () => {
    if (!await confirmDelete(root, t('routes.delete.confirmOne'))) return;
    try {
      await deleteRoutes([shown.id]);
    } catch (error) {
      console.warn('Waymark: could not delete the route:', error);
      announce(t('routes.delete.failed'));
      return;
    }
    announce(t('routes.deleted.one'));
    context.navigate('/routes');
  });

  // The Key button (SRD-09/10): the server's id only while the finger (or Space) is down.
  const showKey = () => {
    keyText.textContent = shown.serverRouteId ? t('route.keyValue', { id: shown.serverRouteId }) : t('route.keyNone');
    keyText.classList.toggle('is-id', Boolean(shown.serverRouteId));
    keyText.hidden = false;
    keyButton.setAttribute('aria-pressed', 'true');
  };
  const hideKey = () => { keyText.hidden = true; keyText.textContent = ''; keyButton.setAttribute('aria-pressed', 'false'); };
  hideKey();
  keyButton.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    // Keep receiving the pointer's up even when the finger slides off, so the id never stays.
    try { keyButton.setPointerCapture(event.pointerId); } catch { /* not capturable: pointerleave still hides */ }
    showKey();
  });
  for (const type of ['pointerup', 'pointercancel', 'pointerleave', 'lostpointercapture', 'blur']) keyButton.addEventListener(type, hideKey);
  keyButton.addEventListener('keydown', (event) => { if (event.key === ' ' || event.key === 'Enter') { event.preventDefault(); showKey(); } });
  keyButton.addEventListener('keyup', (event) => { if (event.key === ' ' || event.key === 'Enter') { event.preventDefault(); hideKey(); } });
  keyButton.addEventListener('contextmenu', (event) => event.preventDefault());

  // The map type chooser (SRD-06/07): opens under the Map button, closes on a choice or outside.
  const closeChooser = () => { chooser.hidden = true; mapButton.setAttribute('aria-expanded', 'false'); };
  mapButton.addEventListener('click', () => {
    const open = chooser.hidden;
    chooser.hidden = !open;
    mapButton.setAttribute('aria-expanded', String(open));
    if (open) /** @type {HTMLButtonElement | null} */ (chooser.querySelector('button[aria-pressed="true"]:not(:disabled)') ?? chooser.querySelector('button:not(:disabled)'))?.focus();
  });
  /** @param {PointerEvent} event */
  const onOutside = (event) => {
    if (chooser.hidden) return;
    const target = /** @type {Node | null} */ (event.target);
    if (target && (chooser.contains(target) || mapButton.contains(target))) return;
    closeChooser();
  };
  document.addEventListener('pointerdown', onOutside);
  /** @param {KeyboardEvent} event */
  const onEscape = (event) => { if (event.key === 'Escape' && !chooser.hidden) { closeChooser(); mapButton.focus(); } };
  document.addEventListener('keydown', onEscape);

  /** @type {any} */
  let map = null;
  const cleanup = () => {
    root.classList.remove('route-main');
    document.removeEventListener('pointerdown', onOutside);
    document.removeEventListener('keydown', onEscape);
    if (map) map.remove();
  };
  const onChanged = async () => {
    // The queue stored this route while it is shown: the status and the Key follow.
    try {
      const fresh = await getRoute(shown.id);
      if (signal.aborted || !fresh) return;
      shown.status = fresh.status;
      shown.serverRouteId = fresh.serverRouteId;
      shown.lastError = fresh.lastError;
      status.replaceChildren(statusIcon(shown));
    } catch { /* the shown status stays */ }
  };
  window.addEventListener(ROUTES_CHANGED, onChanged);

  /** @param {string} text */
  const say = (text) => { message.textContent = text; message.hidden = text === ''; };

  /** @type {any} */
  let L;
  /** @type {Record<MapType, Tiles | null>} */
  let tileSources;
  try {
    [L, tileSources] = await Promise.all([loadLeaflet(), mapSources()]);
  } catch (error) {
    console.warn('Waymark: no map:', error);
    if (!signal.aborted) { say(t('route.mapUnavailable')); mapButton.disabled = true; }
    // Opened offline: the map is drawn once the network is back.
    const again = () => { if (!signal.aborted) context.refresh(); };
    window.addEventListener('online', again, { once: true });
    return () => { cleanup(); window.removeEventListener(ROUTES_CHANGED, onChanged); window.removeEventListener('online', again); };
  }
  if (signal.aborted) return () => window.removeEventListener(ROUTES_CHANGED, onChanged);

  map = L.map(box, { zoomControl: true, attributionControl: true, minZoom: 1, maxZoom: 19 });
  map.attributionControl.setPrefix('');
  /** @type {any} */
  let layer = null;
  /** @param {MapType} type */
  const useType = (type) => {
    const source = tileSources[type];
    if (!source) return;
    const next = tileLayer(L, source);
    next.addTo(map);
    if (layer) map.removeLayer(layer);
    layer = next;
    box.setAttribute('data-map-type', type);
    for (const button of chooser.querySelectorAll('button[data-type]')) button.setAttribute('aria-pressed', String(button.getAttribute('data-type') === type));
  };
  chooser.replaceChildren(...MAP_TYPES.map((type) => {
    const available = tileSources[type] !== null;
    const reasonId = uniqueId('map-type-reason');
    return el('button', {
      type: 'button', class: 'map-type', 'data-type': type, 'aria-pressed': 'false', disabled: !available,
      'aria-describedby': available ? null : reasonId,
      onclick: () => { useType(type); rememberType(type); closeChooser(); mapButton.focus(); },
    }, el('span', { class: 'map-type-name' }, t(TYPE_NAMES[type])),
    available ? null : el('span', { id: reasonId, class: 'map-type-reason' }, t('route.typeMissing')));
  }));
  const wanted = rememberedType();
  useType(tileSources[wanted] ? wanted : 'roadmap');

  // The tracks: one line each, a dashed line over each hole; the view fits them all.
  const drawn = shown.tracks.filter((track) => track.length > 0);
  const lines = L.featureGroup().addTo(map);
  for (const track of drawn) {
    L.polyline(track.map((fix) => [fix.latitude, fix.longitude]), { className: 'route-line', weight: 5, interactive: false }).addTo(lines);
  }
  for (const [from, to] of trackJoins(drawn)) {
    L.polyline([[from.latitude, from.longitude], [to.latitude, to.longitude]], { className: 'route-join', weight: 3, dashArray: '6 8', interactive: false }).addTo(lines);
  }
  if (drawn.length > 0) {
    const first = drawn[0][0];
    const lastTrack = drawn[drawn.length - 1];
    const last = lastTrack[lastTrack.length - 1];
    L.circleMarker([first.latitude, first.longitude], { className: 'route-start-dot', radius: 7, interactive: false }).addTo(lines);
    L.circleMarker([last.latitude, last.longitude], { className: 'route-end-dot', radius: 7, interactive: false }).addTo(lines);
    map.fitBounds(lines.getBounds(), { padding: [32, 32], maxZoom: 18 });
  } else {
    map.setView([20, 0], 2);
    say(t('route.noFixes'));
  }
  return () => { cleanup(); window.removeEventListener(ROUTES_CHANGED, onChanged); };
}
