// The phone's routes in IndexedDB (Web/app/store.js) and their upload queue, as the pages use
// them: route-queue.js does the work, this file wires it to the database, fetch, the kept device
// key and settings (keeper.js), the browser's `online` event, the Network Information API and
// Background Sync (the service worker drains the queue too, with the tag ROUTE_SYNC_TAG, when
// the browser offers it). Nothing here touches the DOM; the pages put the words to the results.
import { records, fixRecords } from '../app/store.js';
import { createRouteBook, createRouteSync, memoryRouteStorage } from './route-queue.js';
import { ensureDeviceKey, renewDeviceKey, loadSettings } from './keeper.js';

/**
 * @typedef {import('./route-queue.js').LocalRoute} LocalRoute
 * @typedef {import('./route-queue.js').DrainResult} DrainResult
 * @typedef {import('./route-queue.js').Connection} Connection
 * @typedef {import('./envelope.js').Fix} Fix
 */

/** The Background Sync tag the service worker answers. */
export const ROUTE_SYNC_TAG = 'waymark-routes';

/** @returns {any} the Network Information API's object, where the browser has one */
function networkInformation() {
  return typeof navigator === 'undefined' ? undefined : /** @type {any} */ (navigator).connection;
}

/**
 * Whether "Wi-Fi only" can be honoured here: the browser tells the kind of connection
 * (`navigator.connection.type`; Chrome on Android does, most desktop browsers and Safari do not).
 * Where it cannot, routes go on any connection and the settings page says so.
 */
export function wifiOnlyHonoured() {
  return typeof networkInformation()?.type === 'string';
}

/** @returns {Connection} */
function currentConnection() {
  const online = typeof navigator === 'undefined' || navigator.onLine !== false;
  const type = networkInformation()?.type;
  return { online, type: typeof type === 'string' ? type : null };
}

function storage() {
  try {
    if (typeof indexedDB !== 'undefined') {
      return { routes: records('routes'), deletes: records('routeDeletes'), fixes: fixRecords() };
    }
  } catch { /* below */ }
  return memoryRouteStorage();
}

/** @type {import('./route-queue.js').RouteBook | null} */
let shared = null;

/** The routes of this phone (made on first use). */
function book() {
  if (!shared) {
    shared = createRouteBook({
      storage: /** @type {import('./route-queue.js').RouteStorage} */ (/** @type {unknown} */ (storage())),
      deviceKey: ensureDeviceKey,
      renewDeviceKey,
      wifiOnly: async () => (await loadSettings()).wifiOnly,
      connection: currentConnection,
    });
  }
  return shared;
}

/** Every route on this phone, newest first. */
export const listRoutes = () => book().listRoutes();
/** @param {string} id a route with its tracks, or null */
export const getRoute = (id) => book().getRoute(id);
/** The route a closed tab left recording, or null. */
export const unfinishedRoute = () => book().unfinishedRoute();
/** @param {{id?: string, nonce: string, settings?: any, startedAt?: number}} start */
export const beginRoute = (start) => book().beginRoute(start);
/** @param {string} id @param {number} trackIndex @param {Fix} fix */
export const saveFix = (id, trackIndex, fix) => book().saveFix(id, trackIndex, fix);
/** @param {string} id @param {{engine?: any, distance?: number, elapsed?: number, trackCount?: number, fixCount?: number, gaps?: Array<{from: number, to: number}>}} progress */
export const saveProgress = (id, progress) => book().saveProgress(id, progress);
/** @param {string} id the pending remote delete's id or a route's: try it again now */
export const retryRoute = (id) => book().retryRoute(id);
/** The remote deletes that wait. */
export const pendingDeletes = () => book().pendingDeletes();

/**
 * Seals the stopped route and queues it; the queue is nudged at once.
 * @param {string} id
 * @param {{nonce?: string, qrPeriod?: number, tracks?: Fix[][]} | null} route
 * @param {string} passphrase
 */
export async function finishRoute(id, route, passphrase) {
  const finished = await book().finishRoute(id, route, passphrase);
  nudge();
  return finished;
}

/**
 * Deletes routes here and queues their deletion on the server.
 * @param {string[]} ids
 */
export async function deleteRoutes(ids) {
  const outcome = await book().deleteRoutes(ids);
  if (outcome.remote > 0) nudge();
  return outcome;
}

/** @type {Set<(routes: LocalRoute[]) => void>} */
const storedListeners = new Set();
/** @type {Set<(result: DrainResult) => void>} */
const drainedListeners = new Set();
/** @type {ReturnType<typeof createRouteSync> | null} */
let sync = null;
let starts = 0;
/** @type {Array<() => void>} */
let unlisten = [];

/**
 * Keeps the queue moving while a page wants it: at start, on `online`, when the connection
 * changes, on a timer for retries; registers Background Sync while anything waits.
 * `onStored(routes)` hears the routes stored in one go (for one notice: "3 routes stored");
 * `onDrained(result)` every drain (to refresh the statuses shown).
 * @param {{onStored?: (routes: LocalRoute[]) => void, onDrained?: (result: DrainResult) => void}} listeners
 * @returns {{stop: () => void}}
 */
export function startRouteSync({ onStored, onDrained } = {}) {
  if (onStored) storedListeners.add(onStored);
  if (onDrained) drainedListeners.add(onDrained);
  starts += 1;
  if (!sync) {
    const made = createRouteSync({
      book: book(),
      onStored: (routes) => { for (const listener of storedListeners) listener(routes); },
      onDrained: (result) => {
        for (const listener of drainedListeners) listener(result);
        if (result.waiting > 0) void registerBackgroundSync();
      },
    });
    sync = made;
    const kick = () => void made.syncNow().catch((error) => console.warn('Waymark: route sync failed:', error));
    globalThis.addEventListener?.('online', kick);
    networkInformation()?.addEventListener?.('change', kick);
    unlisten = [() => globalThis.removeEventListener?.('online', kick), () => networkInformation()?.removeEventListener?.('change', kick)];
    kick();
  }
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      if (onStored) storedListeners.delete(onStored);
      if (onDrained) drainedListeners.delete(onDrained);
      starts -= 1;
      if (starts === 0 && sync) {
        sync.stop();
        sync = null;
        for (const undo of unlisten) undo();
        unlisten = [];
      }
    },
  };
}

/**
 * Drains the queue now (also without startRouteSync, e.g. from the service worker).
 * @returns {Promise<DrainResult>}
 */
export async function syncNow() {
  if (sync) {
    const result = await sync.syncNow();
    if (result) return result;
  }
  const result = await book().drain();
  if (result.stored.length > 0) for (const listener of storedListeners) listener(result.stored);
  return result;
}

function nudge() {
  void syncNow().catch((error) => console.warn('Waymark: route sync failed:', error));
}

/** Asks the browser to wake the service worker when the network is back (Background Sync), where it can. */
async function registerBackgroundSync() {
  try {
    const workers = typeof navigator === 'undefined' ? undefined : /** @type {any} */ (navigator).serviceWorker;
    if (!workers) return;
    const registration = await workers.ready;
    if (registration?.sync && typeof registration.sync.register === 'function') await registration.sync.register(ROUTE_SYNC_TAG);
  } catch {
    // Not allowed here (or not now): the timer and the `online` event still drain the queue.
  }
}
