// The map's arithmetic: which XYZ tiles (Web Mercator) a view covers, and the clusters
// endpoint's GeoJSON made into markers. Pure, unit-tested in node; Leaflet stays in the page.

/**
 * @typedef {{z: number, x: number, y: number}} Tile
 * @typedef {{west: number, south: number, east: number, north: number}} Box
 * @typedef {{kind: 'cluster', key: string, latitude: number, longitude: number, count: number, photo: string, bbox: Box}
 *   | {kind: 'photo', key: string, latitude: number, longitude: number, photo: string, title: string}} MapMarker
 */

const MAX_LATITUDE = 85.0511287798066;

/**
 * The tile (fractional) under a point.
 * @param {number} longitude
 * @param {number} latitude
 * @param {number} z
 */
export function tileOf(longitude, latitude, z) {
  const n = 2 ** z;
  const lat = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, latitude)) * Math.PI / 180;
  const x = (longitude + 180) / 360 * n;
  const y = (1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2 * n;
  return { x, y };
}

/**
 * The tiles at zoom `z` that a view covers (x wrapped around the antimeridian, y clamped),
 * each once; none when the view would need more than `limit`.
 * @param {Box} box
 * @param {number} z
 * @param {number} [limit]
 * @returns {Tile[]}
 */
export function tilesInView(box, z, limit = 64) {
  const zoom = Math.max(0, Math.min(20, Math.round(z)));
  const n = 2 ** zoom;
  const west = Math.floor(tileOf(box.west, 0, zoom).x);
  const east = Math.floor(tileOf(box.east, 0, zoom).x - 1e-9);
  const top = Math.max(0, Math.floor(tileOf(0, box.north, zoom).y));
  const bottom = Math.min(n - 1, Math.floor(tileOf(0, box.south, zoom).y - 1e-9));
  const width = Math.min(n, east - west + 1);
  if (width <= 0 || bottom < top || width * (bottom - top + 1) > limit) return [];
  /** @type {Tile[]} */
  const tiles = [];
  for (let column = 0; column < width; column++) {
    const x = (((west + column) % n) + n) % n;
    for (let y = top; y <= bottom; y++) tiles.push({ z: zoom, x, y });
  }
  return tiles;
}

/**
 * The markers of one clusters answer; features that are not points are left out.
 * @param {any} collection a GeoJSON FeatureCollection
 * @returns {MapMarker[]}
 */
export function markersOf(collection) {
  const features = collection && Array.isArray(collection.features) ? collection.features : [];
  /** @type {MapMarker[]} */
  const markers = [];
  for (const feature of features) {
    const coordinates = feature?.geometry?.type === 'Point' ? feature.geometry.coordinates : null;
    const properties = feature?.properties ?? {};
    if (!Array.isArray(coordinates) || typeof properties.photo !== 'string') continue;
    const [longitude, latitude] = coordinates.map(Number);
    if (!Number.isFinite(longitude) || !Number.isFinite(latitude)) continue;
    if (properties.cluster) {
      const [west, south, east, north] = Array.isArray(properties.bbox) && properties.bbox.length === 4
        ? properties.bbox.map(Number) : [longitude, latitude, longitude, latitude];
      const count = Number(properties.count) || 0;
      markers.push({ kind: 'cluster', key: `c:${longitude},${latitude},${count}`, latitude, longitude, count, photo: properties.photo, bbox: { west, south, east, north } });
    } else {
      markers.push({ kind: 'photo', key: `p:${properties.photo.toLowerCase()}`, latitude, longitude, photo: properties.photo, title: String(properties.title ?? '') });
    }
  }
  return markers;
}

/**
 * Whether a cluster's photos are all at (nearly) one place, so that zooming in cannot part them.
 * @param {Box} box
 */
export function isPointLike(box) {
  return Math.abs(box.east - box.west) < 1e-6 && Math.abs(box.north - box.south) < 1e-6;
}

/**
 * The size class of a cluster marker (the CSS draws three sizes).
 * @param {number} count
 * @returns {'small' | 'medium' | 'large'}
 */
export function clusterSize(count) {
  return count < 10 ? 'small' : count < 1000 ? 'medium' : 'large';
}

/**
 * A cluster's count, short: `7`, `1.2K`, `35K` / `7`, `1234`, `35.000`.
 * @param {number} count
 * @param {string} language
 */
export function formatCount(count, language) {
  return new Intl.NumberFormat(language, { notation: 'compact', maximumFractionDigits: 1 }).format(count);
}
