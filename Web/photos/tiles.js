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

/**
 * Markers that would cover each other on screen made into one cluster: the server clusters
 * each tile on its own, so clusters at a tile's edge, or a photo beside a cluster of the next
 * grid cell, can land on top of one another, where the one below cannot be tapped. Greedy, the
 * biggest first: every marker closer than `distance` px to a kept one joins it (counts added,
 * boxes joined, the biggest one's place and photo kept).
 * @param {MapMarker[]} markers
 * @param {(latitude: number, longitude: number) => {x: number, y: number}} project to screen pixels
 * @param {number} distance
 * @returns {MapMarker[]}
 */
export function mergeOverlapping(markers, project, distance) {
  const size = /** @param {MapMarker} marker */ (marker) => (marker.kind === 'cluster' ? marker.count : 1);
  const order = [...markers].sort((a, b) => size(b) - size(a) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  /** @type {Array<{anchor: MapMarker, at: {x: number, y: number}, members: MapMarker[]}>} */
  const groups = [];
  for (const marker of order) {
    const at = project(marker.latitude, marker.longitude);
    const group = groups.find((other) => Math.hypot(other.at.x - at.x, other.at.y - at.y) < distance);
    if (group) group.members.push(marker);
    else groups.push({ anchor: marker, at, members: [marker] });
  }
  return groups.map(({ anchor, members }) => {
    if (members.length === 1) return anchor;
    const box = { west: Infinity, south: Infinity, east: -Infinity, north: -Infinity };
    for (const member of members) {
      const part = member.kind === 'cluster' ? member.bbox
        : { west: member.longitude, south: member.latitude, east: member.longitude, north: member.latitude };
      box.west = Math.min(box.west, part.west);
      box.south = Math.min(box.south, part.south);
      box.east = Math.max(box.east, part.east);
      box.north = Math.max(box.north, part.north);
    }
    const count = members.reduce((sum, member) => sum + size(member), 0);
    return { kind: 'cluster', key: `m:${members.map((member) => member.key).sort().join('|')}`, latitude: anchor.latitude, longitude: anchor.longitude, count, photo: anchor.photo, bbox: box };
  });
}
