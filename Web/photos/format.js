// Distances, radii and dates of the photo pages, as each language and unit system writes them
// (Intl only, no DOM), and the searches they stand for: the radius choices, the time filter and
// the query of GET /api/v1/photos/nearby. Pure, unit-tested in node.

/** @typedef {'metric' | 'imperial'} UnitSystem */
/** @typedef {'any' | 'day' | 'week' | 'year' | 'custom'} TimeChoice */

/** Regions whose people read distances in miles and feet. */
const IMPERIAL_REGIONS = ['US', 'GB', 'LR', 'MM'];
export const MILE = 1609.344;
const FOOT = 0.3048;

/** Radius of a search (metres) in the seed's default: one mile. */
export const DEFAULT_RADIUS = MILE;
/** The largest radius the server searches (DESIGN §3.7). */
export const MAX_RADIUS = 50000;

/**
 * The unit system of a browser locale such as `en-US` or `de-DE` (a bare language counts as
 * the region it is most spoken in: `en` → US).
 * @param {string | undefined} locale
 * @returns {UnitSystem}
 */
export function unitSystem(locale) {
  let region;
  try { region = new Intl.Locale(locale || 'en').maximize().region; } catch { region = undefined; }
  return region && IMPERIAL_REGIONS.includes(region) ? 'imperial' : 'metric';
}

/**
 * @param {number} value
 * @param {'meter' | 'kilometer' | 'foot' | 'mile'} unit
 * @param {string} language
 * @param {number} digits at most this many fraction digits
 */
function unitNumber(value, unit, language, digits) {
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: digits }).format(value);
}

/**
 * A distance in metres, short: `340 m`, `2.4 km`, `12 km`; `900 ft`, `1.2 mi`, `31 mi`.
 * @param {number} meters
 * @param {string} language
 * @param {UnitSystem} system
 */
export function formatDistance(meters, language, system) {
  const m = Math.max(0, meters);
  if (system === 'imperial') {
    const miles = m / MILE;
    if (miles < 0.1) return unitNumber(Math.round(m / FOOT / 10) * 10, 'foot', language, 0);
    return unitNumber(miles, 'mile', language, miles < 10 ? 1 : 0);
  }
  const rounded = m < 100 ? Math.round(m) : Math.round(m / 10) * 10;
  if (rounded < 1000) return unitNumber(rounded, 'meter', language, 0);
  const km = m / 1000;
  return unitNumber(km, 'kilometer', language, km < 10 ? 1 : 0);
}

/**
 * The radii offered, in metres, in round numbers of the unit system; the first is the default
 * (one mile, as PhotoShare searched), the last at most MAX_RADIUS.
 * @param {UnitSystem} system
 */
export function radiusChoices(system) {
  return system === 'imperial' ? [MILE, 5 * MILE, 10 * MILE, 30 * MILE] : [MILE, 2500, 10000, MAX_RADIUS];
}

/**
 * A radius as its choice reads: `1 mi`, `1.6 km`, `2.5 km`, `50 km`.
 * @param {number} meters
 * @param {string} language
 * @param {UnitSystem} system
 */
export function formatRadius(meters, language, system) {
  if (system === 'imperial') return unitNumber(meters / MILE, 'mile', language, 1);
  return meters < 1000 ? unitNumber(meters, 'meter', language, 0) : unitNumber(meters / 1000, 'kilometer', language, 1);
}

/**
 * The day of a photo: `Nov 24, 2026` / `24.11.2026`.
 * @param {string | Date} when an instant as the API writes it (ISO 8601), or a Date
 * @param {string} language
 * @param {string} [timeZone] for tests; the browser's own by default
 */
export function formatDay(when, language, timeZone) {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone }).format(new Date(when));
}

/**
 * The time filter as `from`/`to` in Unix seconds (either may be missing): the last day, week
 * or year before `now`, or whole local days from–to (`YYYY-MM-DD`, either may be empty).
 * @param {TimeChoice} choice
 * @param {{now?: number, from?: string, to?: string}} options now in milliseconds
 * @returns {{from?: number, to?: number}}
 */
export function timeRange(choice, { now = Date.now(), from = '', to = '' } = {}) {
  const seconds = Math.floor(now / 1000);
  const day = 86400;
  switch (choice) {
    case 'day': return { from: seconds - day };
    case 'week': return { from: seconds - 7 * day };
    case 'year': return { from: seconds - 365 * day };
    case 'custom': {
      /** @type {{from?: number, to?: number}} */
      const range = {};
      const start = localDay(from);
      const end = localDay(to);
      if (start) range.from = Math.floor(start.getTime() / 1000);
      if (end) {
        end.setDate(end.getDate() + 1);
        range.to = Math.floor(end.getTime() / 1000) - 1;
      }
      if (range.from !== undefined && range.to !== undefined && range.from > range.to) return { from: range.to - day + 1, to: range.from + day - 1 };
      return range;
    }
    default: return {};
  }
}

/**
 * Midnight at the start of a local day `YYYY-MM-DD`, or null.
 * @param {string} text
 */
function localDay(text) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A coordinate to six decimals (about 0.1 m), as the searches send it.
 * @param {number} degrees
 */
export function sixDecimals(degrees) {
  return Math.round(degrees * 1e6) / 1e6;
}

/**
 * Unix seconds as ISO 8601 in UTC (`2026-06-01T08:00:00Z`), as the API takes times.
 * @param {number | undefined} seconds
 */
function isoTime(seconds) {
  return seconds === undefined ? undefined : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * The query of one nearby search (`photosNearby`): the place to six decimals (about 0.1 m),
 * the radius to the millimetre and at most MAX_RADIUS.
 * @param {{latitude: number, longitude: number, radius?: number, sort?: 'distance' | 'recent',
 *   limit?: number, from?: number, to?: number, cursor?: string | null}} search
 * @returns {import('../app/contract.js').Operations['photosNearby']['query']}
 */
export function nearbyQuery({ latitude, longitude, radius = DEFAULT_RADIUS, sort = 'distance', limit = 24, from, to, cursor }) {
  return {
    latitude: sixDecimals(latitude), longitude: sixDecimals(longitude),
    radius: Math.min(MAX_RADIUS, Math.round(radius * 1000) / 1000), sort, limit, from: isoTime(from), to: isoTime(to), cursor: cursor || undefined,
  };
}

/**
 * The photos before and after `id` in a list of results (for swiping through them).
 * @param {readonly string[]} ids
 * @param {string} id
 * @returns {{previous: string | null, next: string | null, index: number}}
 */
export function neighbours(ids, id) {
  const index = ids.findIndex((other) => other.toLowerCase() === id.toLowerCase());
  if (index < 0) return { previous: null, next: null, index };
  return { previous: index > 0 ? ids[index - 1] : null, next: index < ids.length - 1 ? ids[index + 1] : null, index };
}

/**
 * What a finished touch gesture means: a mostly horizontal move of at least `threshold` px;
 * right to left goes to the next photo.
 * @param {number} dx end x minus start x
 * @param {number} dy end y minus start y
 * @param {number} [threshold]
 * @returns {'next' | 'previous' | null}
 */
export function swipeDirection(dx, dy, threshold = 50) {
  if (Math.abs(dx) < threshold || Math.abs(dx) < 2 * Math.abs(dy)) return null;
  return dx < 0 ? 'next' : 'previous';
}

/**
 * A moment as ISO 8601 with the local offset of that moment (`2026-11-24T09:30:00+01:00`), as
 * the server's `capturedAt` wants it: the clock time the person saw, and the zone.
 * @param {number} milliseconds since 1970
 * @param {number} [offsetMinutes] east of UTC (default: this browser's offset at that moment)
 */
export function isoWithOffset(milliseconds, offsetMinutes = -new Date(milliseconds).getTimezoneOffset()) {
  const local = new Date(Math.floor(milliseconds / 1000) * 1000 + offsetMinutes * 60000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const minutes = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** How recent a file must be to count as just taken with the camera. */
export const JUST_TAKEN = 10 * 60 * 1000;

/**
 * The capture time to send for a chosen file: its time when it was just taken with the camera
 * (so a photo that waits offline for hours keeps the moment it was taken), else none (the
 * server reads the photo's own EXIF time).
 * @param {number} lastModified the File's lastModified (milliseconds)
 * @param {number} now milliseconds
 * @returns {string | null}
 */
export function captureTime(lastModified, now) {
  if (!Number.isFinite(lastModified) || lastModified <= 0) return null;
  return now - lastModified <= JUST_TAKEN && lastModified <= now + 60000 ? isoWithOffset(lastModified) : null;
}
