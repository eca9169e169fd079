// Leaflet, from the system's package that the server serves under /vendor/ (DESIGN §3.8), loaded
// only by the pages with a map: its stylesheet once, its ES module build, and the tile source
// from GET /api/v1/config.
import { api } from '../app/api.js';

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

/** @type {Promise<TileSource> | null} */
let config = null;

/** Where the map's tiles come from. @returns {Promise<TileSource>} */
export function tileSource() {
  if (!config) {
    config = api.get('/api/v1/config').then(
      (answer) => ({ url: String(answer.tiles.url), attribution: String(answer.tiles.attribution ?? '') }),
      (error) => { config = null; throw error; });
  }
  return config;
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
