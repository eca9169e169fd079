// Where the /paths page keeps its walks on the phone and how it sends them. The paths live in an
// IndexedDB database of their own (`waymark-paths`, store `paths`), written after every point so
// that a closed tab loses nothing; the two switches of the page (a tone per point, following the
// position on the map) are remembered in localStorage.
import { ApiError, call } from '../app/api.js';
import { memoryPathStorage, pathBody } from './model.js';

/** @typedef {import('./model.js').LocalPath} LocalPath */
/** @typedef {import('./model.js').PathStorage} PathStorage */

const DATABASE = 'waymark-paths';
const STORE = 'paths';

/** @type {Promise<IDBDatabase> | null} */
let opening = null;

function open() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const request = indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE, { keyPath: 'id' });
      };
      request.onsuccess = () => {
        const database = request.result;
        database.onversionchange = () => { database.close(); opening = null; };
        resolve(database);
      };
      request.onerror = () => { opening = null; reject(request.error); };
    });
  }
  return opening;
}

/**
 * @template T
 * @param {IDBTransactionMode} mode
 * @param {(objects: IDBObjectStore) => IDBRequest<T>} action
 * @returns {Promise<T>}
 */
async function run(mode, action) {
  const database = await open();
  return new Promise((resolve, reject) => {
    const transaction = database.transaction(STORE, mode);
    const request = action(transaction.objectStore(STORE));
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

/** @type {PathStorage | null} */
let storage = null;

/**
 * The paths on this phone (in memory when the browser has no IndexedDB).
 * @returns {PathStorage}
 */
export function pathStorage() {
  if (!storage) {
    storage = typeof indexedDB === 'undefined' ? memoryPathStorage() : {
      all: () => run('readonly', (objects) => objects.getAll()),
      put: async (path) => { await run('readwrite', (objects) => objects.put(path)); },
      delete: async (id) => { await run('readwrite', (objects) => objects.delete(id)); },
    };
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
