// Where the /paths page keeps its walks on the phone and how it sends them. The paths live in the
// app's one database (Web/app/store.js, store `paths`), written after every point so that a
// closed tab loses nothing; the two switches of the page (a tone per point, following the
// position on the map) are remembered in localStorage.
import { ApiError, call } from '../app/api.js';
import { records } from '../app/store.js';
import { memoryPathStorage, pathBody } from './model.js';

/** @typedef {import('./model.js').LocalPath} LocalPath */
/** @typedef {import('./model.js').PathStorage} PathStorage */

/** @type {PathStorage | null} */
let storage = null;

/**
 * The paths on this phone (in memory when the browser has no IndexedDB).
 * @returns {PathStorage}
 */
export function pathStorage() {
  if (!storage) {
    storage = typeof indexedDB === 'undefined' ? memoryPathStorage() : /** @type {PathStorage} */ (records('paths'));
  }
  return storage;
}

/**
 * Sends a path as POST /api/v1/paths with its Idempotency-Key.
 * @param {LocalPath} path
 * @returns {Promise<any>} the server's path
 */
export async function sendPath(path) {
  if (!navigator.onLine) throw new ApiError(0, 'offline', 'the browser is offline');
  return call('createFieldPath', { body: pathBody(path), headers: { 'Idempotency-Key': path.key } });
}

const SETTINGS = 'waymark.paths.settings';

/** @typedef {{tone: boolean, follow: boolean}} PathSettings a tone per point; the map follows the position */

/** @returns {PathSettings} */
export function loadPathSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS) ?? '{}');
    return { tone: saved.tone === true, follow: saved.follow !== false };
  } catch {
    return { tone: false, follow: true };
  }
}

/** @param {PathSettings} settings */
export function savePathSettings(settings) {
  try { localStorage.setItem(SETTINGS, JSON.stringify(settings)); } catch { /* private mode: not remembered */ }
}
