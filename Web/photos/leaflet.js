// Leaflet, from the system's package that the server serves under /vendor/ (DESIGN §3.8), loaded
// only by the pages with a map: its stylesheet once, its ES module build, and the tile source
// from GET /api/v1/config.
import { call } from '../app/api.js';

const SCRIPT = '/vendor/leaflet/leaflet.esm.js';
const STYLE = '/vendor/leaflet/leaflet.css';

/** @type {Promise<any> | null} */
let loading = null;

/** Leaflet's module (typed loosely: the package ships no types). @returns {Promise<any>} */
export function loadLeaflet() {
  if (!loading) {
    if (!document.querySelector(`link[href="${STYLE}"]`)) {
      document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: STYLE }));
    }
    const url = SCRIPT;
    loading = import(url).catch((error) => { loading = null; throw error; });
  }
  return loading;
}

/** @typedef {{url: string, attribution: string}} TileSource */
/** @typedef {'roadmap' | 'terrain' | 'satellite'} MapType */

/** @type {Promise<Record<MapType, TileSource | null>> | null} */
let config = null;

/**
 * The tiles of each map type the server offers (GET /api/v1/config, asked once): the roadmap
 * always, terrain and satellite only when configured (null otherwise).
 * @returns {Promise<Record<MapType, TileSource | null>>}
 */
export function mapSources() {
  if (!config) {
    /** @param {any} value @returns {TileSource | null} */
    const tiles = (value) => (value && typeof value.url === 'string' ? { url: value.url, attribution: String(value.attribution ?? '') } : null);
    config = call('webAppConfig').then(
      (answer) => ({ roadmap: tiles(answer.tiles), terrain: tiles(answer.terrainTiles), satellite: tiles(answer.satelliteTiles) }),
      (error) => { config = null; throw error; });
  }
  return config;
}

/** Where the map's (roadmap) tiles come from. @returns {Promise<TileSource>} */
export async function tileSource() {
  const { roadmap } = await mapSources();
  if (!roadmap) throw new Error('the server names no map tiles');
  return roadmap;
}

/**
 * A tile layer of `source` (attribution as text: the map's attribution control shows HTML, so
 * it is escaped here).
 * @param {any} L
 * @param {TileSource} source
 */
export function tileLayer(L, source) {
  const text = source.attribution.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return L.tileLayer(source.url, { attribution: text, maxZoom: 19, crossOrigin: false });
}
