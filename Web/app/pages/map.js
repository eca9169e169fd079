// `/map` (seed 004's Map screen): a map centred on the phone's position with a fixed
// crosshair, the photos as markers that the server clusters per tile (GET
// /api/v1/photos/clusters/{z}/{x}/{y}: one request per visible tile, not one per photo);
// a cluster shows its count and zooms into its photos when tapped, a photo shows its round
// thumbnail and opens full screen. `?lat=&lon=&z=` opens the map at a place instead.
import { t, language } from '../i18n.js';
import { el } from '../dom.js';
import { call, target, ApiError } from '../api.js';
import { describeError } from '../errors.js';
import { announce } from '../status.js';
import { currentPosition, positionMessageKey } from '../../photos/position.js';
import { loadLeaflet, tileSource, tileLayer } from '../../photos/leaflet.js';
import { tilesInView, markersOf, isPointLike, clusterSize, formatCount, mergeOverlapping } from '../../photos/tiles.js';
import { nearbyQuery } from '../../photos/format.js';
import { rememberResults } from '../../photos/browse.js';

/** @typedef {import('../../photos/tiles.js').MapMarker} MapMarker */
/** @typedef {import('../router.js').PageContext} PageContext */

export const titleKey = 'page.map.title';

/** Where the map opens when the position is unknown: the whole world. */
const WORLD = { latitude: 20, longitude: 0, zoom: 2 };
const NEAR_ZOOM = 15;
/** Markers closer than this (px) would cover each other: they are shown as one cluster. */
const OVERLAP = 44;

/**
 * @param {HTMLElement} root
 * @param {PageContext} context
 */
export async function render(root, context) {
  const { signal } = context;
  const box = el('div', { class: 'map', id: 'photo-map' });
  const message = el('p', { class: 'map-message', 'aria-live': 'polite', hidden: true });
  const update = el('button', { type: 'button', class: 'primary map-update' }, t('map.update'));
  root.classList.add('map-main');
  root.replaceChildren(
    el('h1', { class: 'visually-hidden' }, t('page.map.title')),
    el('div', { class: 'map-page' },
      box,
      el('div', { class: 'crosshair', 'aria-hidden': 'true' }),
      el('div', { class: 'map-controls' }, update),
      message));
  const cleanup = () => { root.classList.remove('map-main'); };

  /** @param {string} text */
  const say = (text) => { message.textContent = text; message.hidden = text === ''; };

  /** @type {any} */
  let L;
  /** @type {import('../../photos/leaflet.js').TileSource} */
  let source;
  try {
    [L, source] = await Promise.all([loadLeaflet(), tileSource()]);
  } catch (error) {
    say(error instanceof ApiError ? describeError(error, t) : t('map.unavailable'));
    console.warn('Waymark: no map:', error);
    return cleanup;
  }
  if (signal.aborted) return cleanup;

  const query = new URLSearchParams(location.search);
  const asked = ['lat', 'lon'].every((name) => Number.isFinite(Number.parseFloat(query.get(name) ?? '')))
    ? { latitude: Number(query.get('lat')), longitude: Number(query.get('lon')), zoom: Number(query.get('z')) || NEAR_ZOOM } : null;
  const start = asked ?? WORLD;
  const map = L.map(box, { zoomControl: true, worldCopyJump: true, minZoom: 1, maxZoom: 19 });
  map.attributionControl.setPrefix('');
  tileLayer(L, source).addTo(map);
  map.setView([start.latitude, start.longitude], start.zoom);
  const layer = L.layerGroup().addTo(map);
  /** @type {any} where the phone is, after Update: the crosshair marks the map's centre, this dot the person */
  let me = null;

  /** @type {Map<string, Promise<MapMarker[]>>} */
  let tileCache = new Map();
  /** @type {Map<string, any>} markers on the map by MapMarker.key */
  const shown = new Map();
  /** @type {MapMarker[]} */
  let current = [];
  let generation = 0;

  /** @param {{z: number, x: number, y: number}} tile */
  function clustersOf(tile) {
    const key = `${tile.z}/${tile.x}/${tile.y}`;
    let answer = tileCache.get(key);
    if (!answer) {
      // Revalidated every time (the answers carry an ETag), so a photo just uploaded shows at once.
      answer = call('photoClusters', { path: tile, cache: 'no-cache' }).then(markersOf, (error) => { tileCache.delete(key); throw error; });
      tileCache.set(key, answer);
    }
    return answer;
  }

  async function refresh() {
    const mine = ++generation;
    const bounds = map.getBounds();
    const tiles = tilesInView({ west: bounds.getWest(), south: bounds.getSouth(), east: bounds.getEast(), north: bounds.getNorth() }, map.getZoom());
    let lists;
    try {
      lists = await Promise.all(tiles.map(clustersOf));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (!signal.aborted && mine === generation) say(describeError(error, t));
      return;
    }
    if (signal.aborted || mine !== generation) return;
    /** @type {Map<string, MapMarker>} */
    const unique = new Map();
    for (const marker of lists.flat()) unique.set(marker.key, marker);
    /** @param {number} latitude @param {number} longitude */
    const project = (latitude, longitude) => map.latLngToLayerPoint([latitude, longitude]);
    /** @type {Map<string, MapMarker>} */
    const wanted = new Map();
    for (const marker of mergeOverlapping([...unique.values()], project, OVERLAP)) wanted.set(marker.key, marker);
    for (const [key, marker] of shown) {
      if (!wanted.has(key)) { layer.removeLayer(marker); shown.delete(key); }
    }
    for (const [key, marker] of wanted) {
      if (!shown.has(key)) shown.set(key, leafletMarker(marker).addTo(layer));
    }
    current = [...wanted.values()];
    const photos = current.reduce((sum, marker) => sum + (marker.kind === 'cluster' ? marker.count : 1), 0);
    box.setAttribute('aria-label', t('map.label', { count: photos }));
  }

  /** @param {MapMarker} marker */
  function leafletMarker(marker) {
    const lang = language();
    const label = marker.kind === 'cluster' ? t('map.clusterLabel', { count: marker.count }) : marker.title;
    const thumb = el('img', { src: target('photoImage', { path: { photo_id: marker.photo, size: 'thumb' } }), alt: '', width: 48, height: 48, draggable: 'false' });
    const html = marker.kind === 'cluster'
      ? el('span', { class: 'marker-body' }, thumb, el('span', { class: 'marker-count' }, formatCount(marker.count, lang)))
      : el('span', { class: 'marker-body' }, thumb);
    const size = marker.kind === 'cluster' ? { small: 52, medium: 60, large: 68 }[clusterSize(marker.count)] : 48;
    const icon = L.divIcon({
      html, iconSize: [size, size], iconAnchor: [size / 2, size / 2],
      className: marker.kind === 'cluster' ? `photo-marker cluster ${clusterSize(marker.count)}` : 'photo-marker single',
    });
    const item = L.marker([marker.latitude, marker.longitude], { icon, keyboard: true, riseOnHover: true });
    item.on('add', () => {
      const element = item.getElement();
      if (!element) return;
      element.setAttribute('role', 'button');
      element.setAttribute('aria-label', label);
      element.setAttribute('data-photo', marker.photo);
      element.addEventListener('keydown', (/** @type {KeyboardEvent} */ event) => {
        if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); void open(marker); }
      });
    });
    item.on('click', () => void open(marker));
    return item;
  }

  /** @param {MapMarker} marker */
  async function open(marker) {
    if (marker.kind === 'cluster' && !isPointLike(marker.bbox) && map.getZoom() < map.getMaxZoom()) {
      const before = map.getZoom();
      const target = L.latLngBounds([marker.bbox.south, marker.bbox.west], [marker.bbox.north, marker.bbox.east]);
      const zoom = Math.max(before + 1, Math.min(map.getMaxZoom(), map.getBoundsZoom(target, false, L.point(120, 120))));
      map.setView(target.getCenter(), zoom);
      announce(t('map.zoomed', { count: marker.count }));
      return;
    }
    // A photo, or photos at one place: open it, and let the photo page step through the photos
    // shown around it, nearest first.
    let ids = current.filter((other) => other.kind === 'photo').map((other) => /** @type {{photo: string, latitude: number, longitude: number}} */ (other))
      .sort((a, b) => squared(a, marker) - squared(b, marker)).map((other) => other.photo);
    if (marker.kind === 'cluster') {
      try {
        const answer = await call('photosNearby', { query: nearbyQuery({ latitude: marker.latitude, longitude: marker.longitude, radius: 25, limit: 200 }) });
        ids = answer.items.map((/** @type {{id: string}} */ photo) => photo.id);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        ids = [marker.photo];
      }
    }
    if (!ids.some((id) => id.toLowerCase() === marker.photo.toLowerCase())) ids.unshift(marker.photo);
    rememberResults(ids);
    context.navigate(`/photos/${encodeURIComponent(ids[0] && marker.kind === 'cluster' ? ids[0] : marker.photo)}`);
  }

  async function locate() {
    update.disabled = true;
    say(t('position.finding'));
    try {
      const position = await currentPosition({ maximumAge: 0 });
      if (signal.aborted) return;
      tileCache = new Map();
      const here = L.latLng(position.latitude, position.longitude);
      if (me) me.setLatLng(here);
      else me = L.marker(here, { interactive: false, keyboard: false, zIndexOffset: -1000, icon: L.divIcon({ className: 'place-dot me', iconSize: [18, 18] }) }).addTo(map);
      map.setView(here, Math.max(map.getZoom(), NEAR_ZOOM));
      say('');
      void refresh();
    } catch (error) {
      if (signal.aborted) return;
      say(t(positionMessageKey(error)));
    } finally {
      update.disabled = false;
    }
  }

  map.on('moveend', () => void refresh());
  update.addEventListener('click', () => void locate());
  if (asked) void refresh();
  else void locate().then(() => { if (!signal.aborted && generation === 0) void refresh(); });

  return () => { cleanup(); map.remove(); };
}

/**
 * @param {{latitude: number, longitude: number}} a
 * @param {{latitude: number, longitude: number}} b
 */
function squared(a, b) {
  const dx = (a.longitude - b.longitude) * Math.cos(b.latitude * Math.PI / 180);
  const dy = a.latitude - b.latitude;
  return dx * dx + dy * dy;
}
