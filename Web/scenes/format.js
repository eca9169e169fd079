// What the scene pages (/scenes, /scenes/:id, /me/scenes) compute before they draw (DESIGN §3.9,
// seed 001 ch. 4–5): the searches they ask, a scene's title (its name, else its day), its
// distance from the phone, its address line (the gazetteer's, else the coordinates), the
// directions link the phone's own map app opens (Navigate), who may delete what, and whether the
// first-run explanation of rephotography is still to be shown. Pure (no DOM, no i18n): unit-tested
// in node.
import { formatDistance, formatDay, sixDecimals } from '../photos/format.js';
import { geodesicDistance } from '../app/geodesy.js';

/**
 * The API's answers, as the contract gives them (Web/app/contract.js):
 * @typedef {import('../app/contract.js').Photo} Photo
 * @typedef {import('../app/contract.js').Attitude} Attitude
 * @typedef {import('../app/contract.js').SceneAddress} SceneAddress
 * @typedef {import('../app/contract.js').StreetAddress} StreetAddress
 * @typedef {import('../app/contract.js').Rephotograph} Rephotograph
 * @typedef {import('../app/contract.js').Scene} Scene
 * @typedef {import('../app/contract.js').SceneTimelineEntry} TimelineEntry
 * @typedef {{latitude: number, longitude: number}} Place
 * @typedef {import('../app/contract.js').Operations} Operations
 */

/** The radius the Discover screen searches (the seed's API default). */
export const DISCOVER_RADIUS = 2500;
/** Scenes per page of the grid (two columns: an even number). */
export const PAGE_SIZE = 20;

/**
 * The query of one page of scenes near a place (`scenesNearby`).
 * @param {{latitude: number, longitude: number, radius?: number, limit?: number, cursor?: string | null}} search
 * @returns {Operations['scenesNearby']['query']}
 */
export function nearbyScenesQuery({ latitude, longitude, radius = DISCOVER_RADIUS, limit = PAGE_SIZE, cursor = null }) {
  return { latitude: sixDecimals(latitude), longitude: sixDecimals(longitude), radius, limit, cursor: cursor || undefined };
}

/**
 * The query of one page of the signed-in person's scenes (`myScenes`).
 * @param {{limit?: number, cursor?: string | null}} [page]
 * @returns {Operations['myScenes']['query']}
 */
export function myScenesQuery(page = {}) {
  const { limit = PAGE_SIZE, cursor = null } = page;
  return { limit, cursor: cursor || undefined };
}

/**
 * What a scene is called: its name, or (a scene may have none) the day it was taken.
 * @param {{name: string | null, capturedAt: string}} scene
 * @param {string} language
 * @param {string} [timeZone] for tests
 */
export function sceneTitle(scene, language, timeZone) {
  const name = (scene.name ?? '').trim();
  return name !== '' ? name : formatDay(scene.capturedAt, language, timeZone);
}

/**
 * How far the phone is from a scene, in metres: the server's answer when it gave one, else
 * measured on the ellipsoid from the phone's place; null when neither is known.
 * @param {{latitude: number, longitude: number, distance?: number}} scene
 * @param {Place | null} from
 * @returns {number | null}
 */
export function distanceTo(scene, from) {
  if (typeof scene.distance === 'number' && Number.isFinite(scene.distance)) return scene.distance;
  if (!from) return null;
  return geodesicDistance(from, scene);
}

/**
 * The distance text of a grid cell or the scene page (`340 m`, `0.3 mi`), or null when unknown.
 * @param {number | null} meters
 * @param {string} language
 * @param {import('../photos/format.js').UnitSystem} system
 */
export function distanceText(meters, language, system) {
  return meters === null || !Number.isFinite(meters) ? null : formatDistance(meters, language, system);
}

/**
 * Coordinates as people read them: `49.19522° N, 16.60796° E` (five decimals: about a metre),
 * with the language's decimal sign.
 * @param {number} latitude
 * @param {number} longitude
 * @param {string} language
 */
export function formatCoordinates(latitude, longitude, language) {
  const number = new Intl.NumberFormat(language, { minimumFractionDigits: 5, maximumFractionDigits: 5 });
  const ns = latitude < 0 ? 'S' : 'N';
  const ew = longitude < 0 ? 'W' : 'E';
  return `${number.format(Math.abs(latitude))}° ${ns}, ${number.format(Math.abs(longitude))}° ${ew}`;
}

/**
 * The words of an address line in one language (from i18n): `near` with `{distance}`,
 * `{direction}` and `{place}`; `remote` (no town within `{maximum}`) with the same and
 * `{maximum}`; and the eight compass points clockwise from north.
 * @typedef {{near: string, remote: string, compass: string[]}} AddressWords
 */

/**
 * A distance as the address line rounds it (as WaymarkCore's AddressLine does): to 10 m under a
 * kilometre, to 0.1 km under 10 km, to whole kilometres beyond.
 * @param {number} meters
 * @param {string} language
 */
export function addressDistance(meters, language) {
  const tens = Math.round(meters / 10) * 10;
  const number = (/** @type {number} */ value, /** @type {number} */ digits) =>
    new Intl.NumberFormat(language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
  if (tens < 1000) return `${number(tens, 0)} m`;
  const tenths = Math.round(meters / 100) / 10;
  if (tenths < 10) return `${number(tenths, 1)} km`;
  return `${number(Math.round(meters / 1000), 0)} km`;
}

/**
 * "Brno, South Moravian, Tschechien": the place, its region when it differs, and the country
 * named in `language` (the server's English name when the browser knows none).
 * @param {SceneAddress} address
 * @param {string} language
 */
function placeText(address, language) {
  let country = address.country;
  try {
    country = new Intl.DisplayNames(language, { type: 'region' }).of(address.countryCode) ?? country;
  } catch { /* an unknown code: the server's name */ }
  const parts = [address.place];
  if (address.region && address.region !== address.place) parts.push(address.region);
  parts.push(country);
  return parts.join(', ');
}

/**
 * The address line of a scene in the page's language: "1,2 km NO von Brno, South Moravian,
 * Tschechien" from the gazetteer's parts (the server writes its `line` in English, in
 * WaymarkCore's three forms — at a place, near one, no town within some distance — and an
 * English page shows that line as it is), with the source the gazetteer names (its attribution
 * without the words "Place names:", which the page says in its own language); without a
 * gazetteer, the coordinates (and no source).
 * @param {{latitude: number, longitude: number, address: SceneAddress | null}} scene
 * @param {string} language
 * @param {AddressWords} words
 * @returns {{line: string, source: string | null}}
 */
export function addressLine(scene, language, words) {
  const address = scene.address;
  const line = address?.line?.trim() ?? '';
  if (!address || line === '') return { line: formatCoordinates(scene.latitude, scene.longitude, language), source: null };
  const source = address.attribution?.trim().replace(/^Place names:\s*/i, '') || null;
  if (language.toLowerCase().startsWith('en')) return { line, source };
  const remote = /^No town within ([\d.,]+) (m|km)\b/.exec(line);
  // The server's line is the bare place when the scene is at it (no distance, no direction).
  if (!remote && (address.bearing === null || !/^\d/.test(line))) return { line: placeText(address, language), source };
  const point = address.bearing === null ? '' : words.compass[Math.round(address.bearing / 45) % 8] ?? '';
  const maximum = remote ? Number((remote[1] ?? '').replace(/,/g, '')) * (remote[2] === 'km' ? 1000 : 1) : 0;
  const text = (remote ? words.remote : words.near)
    .replace('{maximum}', addressDistance(maximum, language))
    .replace('{distance}', addressDistance(address.distance, language)).replace('{direction}', point)
    .replace('{place}', placeText(address, language)).replace(/\s+/g, ' ').trim();
  return { line: text, source };
}

/**
 * The street address the server's geocoder gave (`waymark serve --nominatim-url`), already in the
 * language the page asked for, and the credit its data asks for; null when there is none.
 * @param {{address?: {street?: StreetAddress | null} | null}} scene
 * @returns {{line: string, source: string} | null}
 */
export function streetLine(scene) {
  const street = scene.address?.street;
  const line = typeof street?.line === 'string' ? street.line.trim() : '';
  if (line === '') return null;
  const source = typeof street?.attribution === 'string' && street.attribution.trim() !== '' ? street.attribution.trim() : '© OpenStreetMap contributors';
  return { line, source };
}

/** @typedef {'android' | 'ios' | 'other'} MapPlatform */

/**
 * Which map app a phone has, from its user agent: Android's `geo:` handler, Apple Maps on an
 * iPhone or iPad (an iPad with iPadOS 13 or later says "Macintosh", but a Mac has no touch
 * screen), else none (a web map).
 * @param {string} userAgent
 * @param {number} [touchPoints] navigator.maxTouchPoints
 * @returns {MapPlatform}
 */
export function mapPlatform(userAgent, touchPoints = 0) {
  if (/\bAndroid\b/i.test(userAgent)) return 'android';
  if (/\b(iPhone|iPad|iPod)\b/.test(userAgent)) return 'ios';
  if (/\bMacintosh\b/.test(userAgent) && touchPoints > 1) return 'ios';
  return 'other';
}

/**
 * The Navigate link: directions to the scene in the phone's map app — a `geo:` URI on Android
 * (RFC 5870, with the place again in `q` so that the app drops a pin with the name), Apple Maps'
 * walking directions on iOS, else OpenStreetMap's walking directions (from the phone's place
 * when known).
 * @param {{latitude: number, longitude: number, label?: string}} scene
 * @param {MapPlatform} platform
 * @param {Place | null} [from]
 */
export function directionsLink(scene, platform, from = null) {
  const to = `${scene.latitude.toFixed(6)},${scene.longitude.toFixed(6)}`;
  const label = (scene.label ?? '').replace(/[()]/g, ' ').replace(/\s+/g, ' ').trim();
  if (platform === 'android') {
    return `geo:${to}?q=${encodeURIComponent(to + (label ? `(${label})` : ''))}`;
  }
  if (platform === 'ios') {
    const query = new URLSearchParams({ daddr: to, dirflg: 'w' });
    if (label) query.set('q', label);
    return `https://maps.apple.com/?${query}`;
  }
  const start = from ? `${from.latitude.toFixed(6)},${from.longitude.toFixed(6)}` : '';
  const query = new URLSearchParams({ engine: 'fossgis_osrm_foot', route: `${start};${to}` });
  return `https://www.openstreetmap.org/directions?${query}`;
}

/**
 * Whether `id` names the same account as `other` (the server's UUIDs may differ in case).
 * @param {string | null | undefined} id
 * @param {string | null | undefined} other
 */
function sameAccount(id, other) {
  return typeof id === 'string' && typeof other === 'string' && id.toLowerCase() === other.toLowerCase();
}

/**
 * Whether the signed-in person created the scene (and so may delete it).
 * @param {{id: string} | null} user
 * @param {{creator: {id: string}}} scene
 */
export function isCreator(user, scene) {
  return user !== null && sameAccount(user.id, scene.creator.id);
}

/**
 * Whether the signed-in person may remove a rephotograph: its author or the scene's creator.
 * @param {{id: string} | null} user
 * @param {{creator: {id: string}}} scene
 * @param {{photo: {owner: {id: string}}}} rephotograph
 */
export function mayRemoveRephotograph(user, scene, rephotograph) {
  return user !== null && (sameAccount(user.id, scene.creator.id) || sameAccount(user.id, rephotograph.photo.owner.id));
}

/**
 * The timeline oldest first, as the server sends it; sorted again by capture time (stable) so
 * that a list put together elsewhere reads the same.
 * @template {{photo: {capturedAt: string}}} T
 * @param {readonly T[]} entries
 * @returns {T[]}
 */
export function oldestFirst(entries) {
  return entries.map((entry, index) => ({ entry, index }))
    .sort((a, b) => Date.parse(a.entry.photo.capturedAt) - Date.parse(b.entry.photo.capturedAt) || a.index - b.index)
    .map(({ entry }) => entry);
}

/** Where the browser remembers that the first-run explanation was dismissed. */
export const INTRO_STORAGE_KEY = 'waymark.scenes.introDismissed';

/**
 * Whether to show the short explanation of rephotography: until it was dismissed once. A
 * browser that keeps nothing (storage refused) shows it every time rather than never.
 * @param {Pick<Storage, 'getItem'> | null} storage
 */
export function introShown(storage) {
  try {
    return storage?.getItem(INTRO_STORAGE_KEY) !== '1';
  } catch {
    return true;
  }
}

/**
 * Remembers that the explanation was dismissed; false when the browser keeps nothing.
 * @param {Pick<Storage, 'setItem'> | null} storage
 */
export function dismissIntro(storage) {
  try {
    if (!storage) return false;
    storage.setItem(INTRO_STORAGE_KEY, '1');
    return true;
  } catch {
    return false;
  }
}
