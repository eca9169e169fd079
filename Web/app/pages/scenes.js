// `/scenes` Discover (seed 001, fig. 4.1): the scenes near the phone in two modes, Nearby (a
// two-column grid of square cells, nearest first, with distance; More for the next page) and
// Map (dark tiles, one marker per scene showing its reference thumbnail; tapping opens the
// scene). New scene starts the camera; a short explanation of rephotography greets a first
// visit until it is dismissed, because the seed's testers were lost without one.
import { t, language } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { call, ApiError } from '../api.js';
import { describeError } from '../errors.js';
import { announce } from '../status.js';
import { currentPosition, positionMessageKey } from '../../photos/position.js';
import { unitSystem, formatRadius } from '../../photos/format.js';
import { loadLeaflet, tileSource, tileLayer } from '../../photos/leaflet.js';
import { nearbyScenesQuery, sceneTitle, introShown, dismissIntro, DISCOVER_RADIUS } from '../../scenes/format.js';
import { sceneCell } from '../../scenes/cell.js';

/** @typedef {import('../../scenes/format.js').Scene} Scene */
/** @typedef {import('../../photos/position.js').Position} Position */
/** @typedef {import('../router.js').PageContext} PageContext */
/** @typedef {'nearby' | 'map'} Mode */

export const titleKey = 'scenes.discover.title';

/**
 * What the page showed last, so that coming back from a scene shows the same grid at once
 * (searched again when it is five minutes old).
 * @type {{mode: Mode, position: Position | null, items: Scene[], next: string | null, at: number}}
 */
const state = { mode: 'nearby', position: null, items: [], next: null, at: 0 };
const FRESH = 5 * 60 * 1000;
const MARKER = 52;
/** How many of the nearest scenes the map shows at first. */
const NEAREST = 5;

/**
 * The short explanation of rephotography, shown until dismissed (remembered in localStorage).
 * @returns {HTMLElement | null}
 */
function introCard() {
  const storage = safeStorage();
  if (!introShown(storage)) return null;
  const heading = el('h2', { id: uniqueId('scenes-intro') }, t('scenes.intro.heading'));
  const dismiss = el('button', { type: 'button' }, t('scenes.intro.dismiss'));
  const card = el('section', { class: 'card scenes-intro', 'aria-labelledby': heading.id },
    heading,
    el('p', {}, t('scenes.intro.what')),
    el('ol', { class: 'scenes-intro-steps' },
      el('li', {}, t('scenes.intro.step1')),
      el('li', {}, t('scenes.intro.step2')),
      el('li', {}, t('scenes.intro.step3'))),
    el('p', { class: 'actions' }, dismiss));
  dismiss.addEventListener('click', () => {
    dismissIntro(storage);
    const next = /** @type {HTMLElement | null} */ (card.parentElement?.querySelector('[role=tab][aria-selected=true]') ?? null);
    card.remove();
    next?.focus();
    announce(t('scenes.intro.dismissed'));
  });
  return card;
}

/** The browser's localStorage, or null where reading it throws (storage blocked). */
function safeStorage() {
  try { return window.localStorage; } catch { return null; }
}

/**
 * @param {HTMLElement} root
 * @param {PageContext} context
 */
export async function render(root, context) {
  const { signal } = context;
  const lang = language();
  const system = unitSystem(navigator.language);

  // Tabs (WAI-ARIA tabs pattern): the arrow keys move between them, the panels follow.
  const nearbyTab = el('button', { type: 'button', role: 'tab', id: uniqueId('tab-nearby') }, t('scenes.tab.nearby'));
  const mapTab = el('button', { type: 'button', role: 'tab', id: uniqueId('tab-map') }, t('scenes.tab.map'));
  const nearbyPanel = el('section', { role: 'tabpanel', class: 'scenes-panel', id: uniqueId('panel-nearby'), 'aria-labelledby': nearbyTab.id });
  const mapPanel = el('section', { role: 'tabpanel', class: 'scenes-panel scenes-map-panel', id: uniqueId('panel-map'), 'aria-labelledby': mapTab.id });
  nearbyTab.setAttribute('aria-controls', nearbyPanel.id);
  mapTab.setAttribute('aria-controls', mapPanel.id);
  const tabs = el('div', { role: 'tablist', class: 'scenes-tabs', 'aria-label': t('scenes.tab.label') }, nearbyTab, mapTab);

  const message = el('div', { class: 'scenes-message', 'aria-live': 'polite' });
  const grid = el('ul', { class: 'scenes-grid', 'aria-label': t('scenes.nearby.results') });
  const more = el('button', { type: 'button', class: 'more', hidden: true }, t('scenes.nearby.more'));
  const update = el('button', { type: 'button' }, t('scenes.nearby.update'));
  nearbyPanel.append(el('div', { class: 'scenes-status' }, message, update), grid, more);

  const mapBox = el('div', { class: 'scenes-map', role: 'region', 'aria-label': t('scenes.map.label', { count: 0 }) });
  const mapMessage = el('p', { class: 'map-message', 'aria-live': 'polite', hidden: true });
  mapPanel.append(el('div', { class: 'scenes-map-frame' }, mapBox, mapMessage));

  const newScene = el('a', { class: 'button primary', href: '/scenes/new' }, t('scenes.new'));
  root.replaceChildren(
    el('h1', {}, t('scenes.discover.heading')),
    introCard() ?? '',
    el('p', { class: 'actions scenes-actions' }, newScene, el('a', { class: 'button', href: '/me/scenes' }, t('scenes.mine.link'))),
    tabs, nearbyPanel, mapPanel);

  /** @param {Mode} mode @param {boolean} [focus] */
  function show(mode, focus = false) {
    state.mode = mode;
    for (const [tab, panel, which] of /** @type {Array<[HTMLElement, HTMLElement, Mode]>} */ ([[nearbyTab, nearbyPanel, 'nearby'], [mapTab, mapPanel, 'map']])) {
      const selected = which === mode;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      panel.hidden = !selected;
      if (selected && focus) tab.focus();
    }
    if (mode === 'map') void openMap();
  }
  nearbyTab.addEventListener('click', () => show('nearby'));
  mapTab.addEventListener('click', () => show('map'));
  tabs.addEventListener('keydown', (event) => {
    if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
    event.preventDefault();
    const to = event.key === 'Home' ? 'nearby' : event.key === 'End' ? 'map' : state.mode === 'nearby' ? 'map' : 'nearby';
    show(to, true);
  });

  /** @param {string} text @param {HTMLElement | null} [action] @param {boolean} [problem] */
  function say(text, action = null, problem = false) {
    message.replaceChildren(el('p', { class: problem ? 'form-error' : 'hint' }, text), action ?? '');
  }

  function showItems() {
    grid.replaceChildren(...state.items.map((scene) => sceneCell(scene, system)));
    more.hidden = !state.next;
    showMarkers();
  }

  async function locateAndSearch() {
    update.disabled = true;
    say(t('position.finding'));
    try {
      const position = await currentPosition({ maximumAge: 0 });
      if (signal.aborted) return;
      state.position = position;
      await search(position);
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ApiError) throw error;
      const retry = el('button', { type: 'button', onclick: () => void locateAndSearch() }, t('position.retry'));
      say(t(positionMessageKey(error)), el('p', { class: 'actions' }, retry), true);
      sayOnMap(t(positionMessageKey(error)));
    } finally {
      update.disabled = false;
    }
  }

  /**
   * @param {Position} position
   * @param {string | null} [cursor] the next page of the same search, appended
   */
  async function search(position, cursor = null) {
    grid.setAttribute('aria-busy', 'true');
    more.disabled = true;
    try {
      /** @type {{items: Scene[], next: string | null}} */
      const answer = await call('scenesNearby', { query: nearbyScenesQuery({ latitude: position.latitude, longitude: position.longitude, cursor }) });
      if (signal.aborted) return;
      state.items = cursor ? [...state.items, ...answer.items] : answer.items;
      state.next = answer.next;
      state.at = Date.now();
      showItems();
      if (!cursor) fit();
      summarize();
      announce(t('scenes.nearby.announce', { count: state.items.length }));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (!signal.aborted) say(describeError(error, t), el('p', { class: 'actions' }, el('button', { type: 'button', onclick: () => void search(position, cursor) }, t('position.retry'))), true);
    } finally {
      grid.removeAttribute('aria-busy');
      more.disabled = false;
    }
  }

  function summarize() {
    const radius = formatRadius(DISCOVER_RADIUS, lang, system);
    if (state.items.length === 0) {
      say(t('scenes.nearby.empty', { radius }), el('p', { class: 'actions' }, el('a', { class: 'button primary', href: '/scenes/new' }, t('scenes.nearby.makeFirst'))));
    } else {
      say(t('scenes.nearby.found', { count: state.items.length, radius }));
    }
  }

  more.addEventListener('click', () => { if (state.position) void search(state.position, state.next); });
  update.addEventListener('click', () => void locateAndSearch());

  // ---- Map ----
  /** @type {any} */
  let L = null;
  /** @type {any} */
  let map = null;
  /** @type {any} */
  let markers = null;
  /** @type {any} */
  let me = null;
  /** @type {Promise<void> | null} */
  let opening = null;

  /** @param {string} text */
  function sayOnMap(text) { mapMessage.textContent = text; mapMessage.hidden = text === ''; }

  function openMap() {
    if (map) { map.invalidateSize(); fit(); return Promise.resolve(); }
    if (!opening) {
      opening = (async () => {
        let source;
        try {
          [L, source] = await Promise.all([loadLeaflet(), tileSource()]);
        } catch (error) {
          opening = null;
          sayOnMap(error instanceof ApiError ? describeError(error, t) : t('map.unavailable'));
          console.warn('Waymark: no map:', error);
          return;
        }
        if (signal.aborted) return;
        map = L.map(mapBox, { zoomControl: true, worldCopyJump: true, minZoom: 2, maxZoom: 19 });
        map.attributionControl.setPrefix('');
        tileLayer(L, source).addTo(map);
        const start = state.position ?? { latitude: 20, longitude: 0 };
        map.setView([start.latitude, start.longitude], state.position ? 15 : 2);
        markers = L.layerGroup().addTo(map);
        showMarkers();
        fit();
      })();
    }
    return opening;
  }

  /**
   * Shows the phone and the nearest few scenes (those within walking distance; zooming out shows
   * the others): fitting all of them would pile their markers on top of each other.
   */
  function fit() {
    if (!map || !state.position) return;
    const points = [[state.position.latitude, state.position.longitude], ...state.items.slice(0, NEAREST).map((scene) => [scene.latitude, scene.longitude])];
    if (points.length === 1) map.setView(points[0], 15);
    else map.fitBounds(L.latLngBounds(points), { padding: [MARKER, MARKER], maxZoom: 17 });
  }

  function showMarkers() {
    if (!map || !markers) return;
    markers.clearLayers();
    if (state.position) {
      const here = L.latLng(state.position.latitude, state.position.longitude);
      if (me) me.setLatLng(here);
      else me = L.marker(here, { interactive: false, keyboard: false, zIndexOffset: -1000, icon: L.divIcon({ className: 'place-dot me', iconSize: [18, 18] }) }).addTo(map);
    }
    // The nearer a scene, the higher its marker lies where markers overlap.
    state.items.forEach((scene, index) => markers.addLayer(sceneMarker(scene, (state.items.length - index) * 1000)));
    mapBox.setAttribute('aria-label', t('scenes.map.label', { count: state.items.length }));
    sayOnMap(state.position && state.items.length === 0 ? t('scenes.nearby.empty', { radius: formatRadius(DISCOVER_RADIUS, lang, system) }) : '');
  }

  /** @param {Scene} scene @param {number} above the marker's z-index offset */
  function sceneMarker(scene, above) {
    const title = sceneTitle(scene, lang);
    const icon = L.divIcon({
      html: el('span', { class: 'marker-body' }, el('img', { src: scene.reference.urls.thumb, alt: '', width: MARKER, height: MARKER, draggable: 'false' })),
      iconSize: [MARKER, MARKER], iconAnchor: [MARKER / 2, MARKER / 2], className: 'scene-marker',
    });
    const marker = L.marker([scene.latitude, scene.longitude], { icon, keyboard: true, riseOnHover: true, zIndexOffset: above });
    const open = () => context.navigate(`/scenes/${encodeURIComponent(scene.id)}`);
    marker.on('add', () => {
      const element = marker.getElement();
      if (!element) return;
      element.setAttribute('role', 'link');
      element.setAttribute('aria-label', title);
      element.setAttribute('data-scene', scene.id);
      element.addEventListener('keydown', (/** @type {KeyboardEvent} */ event) => {
        if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); open(); }
      });
    });
    marker.on('click', open);
    return marker;
  }

  show(state.mode);
  if (state.position && state.items.length > 0 && Date.now() - state.at <= FRESH) {
    showItems();
    summarize();
  } else if (state.position && Date.now() - state.at > FRESH) {
    void search(state.position);
  } else {
    void locateAndSearch();
  }
  return () => { if (map) map.remove(); };
}
