// The phone's routes and their upload queue, with storage, network and keys injected: the app
// uses IndexedDB, fetch and the kept device key (Web/recorder/routes.js), the unit tests plain
// objects. Every accepted fix is stored as it arrives; a stopped route is sealed here (DESIGN
// §3.2) and queued with its own Idempotency-Key, made once and kept, so a retry after a lost
// answer never stores the route twice. The queue never drops a route: no network and server
// trouble wait with exponential backoff and full jitter (as UploadSchedule.swift), a refusal
// stays on the route as `lastError` until the person acts. Nothing here touches the DOM.
import { ApiError, errorFromResponse, signRequest, target } from '../app/api.js';
import { operations } from '../app/contract.js';
import { sealRoute, PBKDF2_ITERATIONS } from './envelope.js';

/**
 * @typedef {import('./envelope.js').Fix} Fix
 * @typedef {import('./envelope.js').Envelope} Envelope
 * @typedef {{status: number, code: string, reason: string, permanent: boolean}} RouteError
 *   `permanent`: the server refused the request itself (a 4xx other than 401/408/429); it is
 *   not tried again by itself (retryRoute does)
 * @typedef {{envelope: Envelope, lookup: string, deleteTokenHash: string, idempotencyKey: string,
 *   attempts: number, nextAttemptAt: number}} SealedUpload  what is sent, and when it may be next
 * @typedef {{id: string, nonce: string, startedAt: number, stoppedAt: number | null,
 *   status: 'recording' | 'queued' | 'stored', serverRouteId: string | null, distance: number,
 *   elapsed: number, trackCount: number, fixCount: number, gaps: Array<{from: number, to: number}>,
 *   engine: any, settings: any, qrPeriod: number | null, lookup: string | null, deleteToken: string | null,
 *   upload: SealedUpload | null, lastError: RouteError | null, storedAt: number | null}} LocalRoute
 * @typedef {{id: string, routeId: string, nonce: string, serverRouteId: string | null, lookup: string,
 *   deleteToken: string, createdAt: number, attempts: number, nextAttemptAt: number,
 *   lastError: RouteError | null}} RemoteDelete  a delete that waits for the network; found by its
 *   lookup key when the route's id never came back
 * @typedef {{routeId: string, track: number, latitude: number, longitude: number,
 *   altitude: number | null, accuracy: number | null, time: number}} FixRecord
 */

/**
 * @template T
 * @typedef {{all: () => Promise<T[]>, get: (id: string) => Promise<T | null>, put: (record: T) => Promise<void>,
 *   delete: (id: string) => Promise<void>}} Records
 */

/**
 * @typedef {{routes: Records<LocalRoute>, deletes: Records<RemoteDelete>,
 *   fixes: {add: (fix: FixRecord) => Promise<void>, of: (routeId: string) => Promise<FixRecord[]>,
 *     deleteRoute: (routeId: string) => Promise<void>}}} RouteStorage
 * @typedef {{key: string, secret: string}} DeviceKey
 * @typedef {{online: boolean, type: string | null}} Connection  `type` from the Network
 *   Information API (`wifi`, `cellular`, …), null where the browser does not tell
 * @typedef {{stored: LocalRoute[], deleted: number, waiting: number, failed: number,
 *   blocked: null | 'offline' | 'wifiOnly' | 'noDeviceKey'}} DrainResult
 */

/** Backoff as Sources/WaymarkCore/Recording/UploadSchedule.swift: the first retry within 5 s, doubling, at most 15 min. */
export const FIRST_RETRY_CEILING = 5;
export const MAX_RETRY_DELAY = 15 * 60;

/**
 * The longest wait, in seconds, after `failures` consecutive failures (0 for none).
 * @param {number} failures
 */
export function retryCeiling(failures) {
  if (failures <= 0) return 0;
  return Math.min(MAX_RETRY_DELAY, FIRST_RETRY_CEILING * 2 ** Math.min(failures - 1, 16));
}

/**
 * Whether a failed request is simply repeated later: no answer, 401 (a signature problem such
 * as the clock, or a key being replaced), 408, 429 and every 5xx. Any other 4xx is a refusal.
 * @param {{status?: number}} error
 */
export function isRetryable(error) {
  const status = typeof error?.status === 'number' ? error.status : 0;
  return status === 0 || status === 401 || status === 408 || status === 429 || status >= 500;
}

/**
 * Whether "Wi-Fi only" lets an upload start on this connection: the browser must say which
 * kind it is (Network Information API); where it does not, the setting cannot be honoured and
 * uploads go on any connection. As NetworkPolicy.swift: only a wireless network passes.
 * @param {boolean} wifiOnly
 * @param {Connection} connection
 */
export function networkAllows(wifiOnly, connection) {
  if (!connection.online) return false;
  if (!wifiOnly || connection.type == null) return true;
  return connection.type === 'wifi';
}

/** @param {unknown} error @returns {RouteError} */
function routeError(error) {
  const failure = /** @type {any} */ (error);
  const status = typeof failure?.status === 'number' ? failure.status : 0;
  return {
    status,
    code: String(failure?.code ?? 'offline'),
    reason: String(failure?.reason ?? failure?.message ?? ''),
    permanent: !isRetryable(failure),
  };
}

/**
 * @param {{storage: RouteStorage, fetch?: typeof fetch, baseURL?: string,
 *   deviceKey: () => Promise<DeviceKey | null>, renewDeviceKey: () => Promise<DeviceKey | null>,
 *   wifiOnly?: () => Promise<boolean>, connection?: () => Connection,
 *   now?: () => number, random?: () => number, newId?: () => string, iterations?: number}} options
 *   `now` in milliseconds; `deviceKey` makes one when none is kept and the user is signed in;
 *   `renewDeviceKey` is asked when the server no longer knows the key
 */
export function createRouteBook({
  storage, fetch: send = (input, init) => fetch(input, init), baseURL = '', deviceKey, renewDeviceKey,
  wifiOnly = async () => false, connection = () => ({ online: true, type: null }),
  now = Date.now, random = Math.random, newId = () => crypto.randomUUID(), iterations = PBKDF2_ITERATIONS,
}) {
  const seconds = () => now() / 1000;
  /** @type {Promise<DrainResult> | null} */
  let draining = null;

  // ---- The local routes ----

  /** Every route, newest first. */
  async function listRoutes() {
    return (await storage.routes.all()).sort((a, b) => b.startedAt - a.startedAt);
  }

  /**
   * A route with its tracks (from the fixes as they were stored), or null.
   * @param {string} id
   * @returns {Promise<(LocalRoute & {tracks: Fix[][]}) | null>}
   */
  async function getRoute(id) {
    const route = await storage.routes.get(id);
    if (!route) return null;
    return { ...route, tracks: await storedTracks(id) };
  }

  /** @param {string} id @returns {Promise<Fix[][]>} */
  async function storedTracks(id) {
    /** @type {Fix[][]} */
    const tracks = [];
    for (const { track, latitude, longitude, altitude, accuracy, time } of await storage.fixes.of(id)) {
      while (tracks.length <= track) tracks.push([]);
      tracks[track].push({ latitude, longitude, altitude, accuracy, time });
    }
    return tracks.filter((fixes) => fixes.length > 0);
  }

  /** The route still being recorded (after a reload, a closed tab, a dead battery), or null. */
  async function unfinishedRoute() {
    return (await listRoutes()).find((route) => route.status === 'recording') ?? null;
  }

  /**
   * Starts a route: stored before its first fix.
   * @param {{id?: string, nonce: string, settings?: any, startedAt?: number}} start `startedAt` wall seconds
   */
  async function beginRoute({ id = newId(), nonce, settings = null, startedAt = seconds() }) {
    /** @type {LocalRoute} */
    const route = {
      id, nonce, startedAt, stoppedAt: null, status: 'recording', serverRouteId: null, distance: 0, elapsed: 0,
      trackCount: 0, fixCount: 0, gaps: [], engine: null, settings, qrPeriod: settings?.qrPeriod ?? null,
      lookup: null, deleteToken: null, upload: null, lastError: null, storedAt: null,
    };
    await storage.routes.put(route);
    return route;
  }

  /**
   * Stores one accepted fix at once (resolves when it is written).
   * @param {string} id
   * @param {number} trackIndex
   * @param {Fix} fix
   */
  async function saveFix(id, trackIndex, fix) {
    await storage.fixes.add({
      routeId: id, track: trackIndex, latitude: fix.latitude, longitude: fix.longitude,
      altitude: fix.altitude ?? null, accuracy: fix.accuracy ?? null, time: fix.time,
    });
  }

  /**
   * Stores what the recording screen shows and the engine's state (to continue after a reload).
   * @param {string} id
   * @param {{engine?: any, distance?: number, elapsed?: number, trackCount?: number, fixCount?: number,
   *   gaps?: Array<{from: number, to: number}>}} progress
   * @returns {Promise<LocalRoute | null>} null when there is no such route being recorded
   */
  async function saveProgress(id, progress) {
    const route = await storage.routes.get(id);
    if (!route || route.status !== 'recording') return null;
    for (const key of /** @type {const} */ (['engine', 'distance', 'elapsed', 'trackCount', 'fixCount', 'gaps'])) {
      if (progress[key] !== undefined) /** @type {any} */ (route)[key] = progress[key];
    }
    await storage.routes.put(route);
    return route;
  }

  /**
   * Seals a stopped route in the browser and queues it (status `queued`). The tracks are the
   * route's as the engine gives them; without them, the fixes stored one by one. Finishing a
   * route that is already queued or stored changes nothing.
   * @param {string} id
   * @param {{nonce?: string, qrPeriod?: number, tracks?: Fix[][]} | null} route what RecorderEngine.stop() answered
   * @param {string} passphrase
   * @returns {Promise<LocalRoute>}
   * @throws {import('./envelope.js').EnvelopeError} `emptyPassphrase`; the route then stays as it was
   * @throws {RouteBookError} `noSuchRoute`
   */
  async function finishRoute(id, route, passphrase) {
    const local = await storage.routes.get(id);
    if (!local) throw new RouteBookError('noSuchRoute', id);
    if (local.status !== 'recording') return local;
    const tracks = (route?.tracks ?? await storedTracks(id)).filter((track) => track.length > 0);
    const qrPeriod = route?.qrPeriod ?? local.qrPeriod ?? local.settings?.qrPeriod ?? 5;
    const sealed = await sealRoute({ nonce: route?.nonce ?? local.nonce, qrPeriod, tracks }, passphrase, { iterations });
    const finished = {
      ...local,
      status: /** @type {const} */ ('queued'), stoppedAt: local.stoppedAt ?? seconds(), engine: null, qrPeriod,
      trackCount: tracks.length, fixCount: tracks.reduce((sum, track) => sum + track.length, 0),
      lookup: sealed.lookupKey, deleteToken: sealed.deleteToken, lastError: null,
      upload: {
        envelope: sealed.envelope, lookup: sealed.lookupKey, deleteTokenHash: sealed.deleteTokenHash,
        idempotencyKey: newId(), attempts: 0, nextAttemptAt: 0,
      },
    };
    await storage.routes.put(finished);
    return finished;
  }

  /**
   * Deletes routes on the phone at once, and queues the delete on the server for those that
   * may be there (stored, or sent at least once: the answer may have been lost).
   * @param {string[]} ids
   * @returns {Promise<{deleted: number, remote: number}>}
   */
  async function deleteRoutes(ids) {
    let deleted = 0;
    let remote = 0;
    for (const id of ids) {
      const route = await storage.routes.get(id);
      if (!route) continue;
      const mayBeOnServer = route.status === 'stored' || (route.status === 'queued' && (route.upload?.attempts ?? 0) > 0);
      if (mayBeOnServer && route.deleteToken && route.lookup) {
        await storage.deletes.put({
          id: newId(), routeId: route.id, nonce: route.nonce, serverRouteId: route.serverRouteId, lookup: route.lookup,
          deleteToken: route.deleteToken, createdAt: seconds(), attempts: 0, nextAttemptAt: 0, lastError: null,
        });
        remote += 1;
      }
      await storage.routes.delete(id);
      await storage.fixes.deleteRoute(id);
      deleted += 1;
    }
    return { deleted, remote };
  }

  /**
   * Tries a route (or remote delete) again now, also one the server refused.
   * @param {string} id
   */
  async function retryRoute(id) {
    const route = await storage.routes.get(id);
    if (route?.upload) {
      route.upload.nextAttemptAt = 0;
      route.lastError = null;
      await storage.routes.put(route);
      return true;
    }
    const pending = await storage.deletes.get(id);
    if (pending) {
      pending.nextAttemptAt = 0;
      pending.lastError = null;
      await storage.deletes.put(pending);
      return true;
    }
    return false;
  }

  /** The remote deletes that wait, oldest first. */
  async function pendingDeletes() {
    return (await storage.deletes.all()).sort((a, b) => a.createdAt - b.createdAt);
  }

  // ---- The network ----

  /**
   * One signed request of the route API (signature v2, fresh nonce every time).
   * @param {DeviceKey} key
   * @param {'createRoute' | 'findRouteByLookup' | 'deleteRoute'} id the operation, whose method and path the contract gives
   * @param {{path?: {route_id: string}, query?: {lookup: string}, body?: string, signed?: Array<[string, string]>}} parts
   *   `signed`: headers sent and signed
   * @returns {Promise<any>} the JSON answer (null for an empty one)
   * @throws {ApiError}
   */
  async function signedRequest(key, id, { path, query, body, signed = [] } = {}) {
    const method = operations[id].method;
    const to = target(id, { path, query });
    const xapi = await signRequest({ secret: key.secret, key: key.key, method, target: to, body: body ?? '', headers: signed, now: now() });
    /** @type {Record<string, string>} */
    const headers = { Accept: 'application/json', ...xapi };
    for (const [name, value] of signed) headers[name] = value;
    let response;
    try {
      response = await send(baseURL + to, { method, headers, body, credentials: 'omit', cache: 'no-store' });
    } catch (error) {
      throw new ApiError(0, 'offline', String(error));
    }
    const text = await response.text();
    if (!response.ok) throw errorFromResponse(response.status, text, response.headers.get('Retry-After'), now());
    return text === '' ? null : JSON.parse(text);
  }

  /**
   * Sends a request with the device key; when the server no longer knows the key, makes a new
   * one and sends again once.
   * @template T
   * @param {{key: DeviceKey}} holder the key in use (replaced when renewed)
   * @param {(key: DeviceKey) => Promise<T>} request
   * @returns {Promise<T>}
   */
  async function withKey(holder, request) {
    try {
      return await request(holder.key);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401 && error.code === 'unknown_key')) throw error;
      const renewed = await renewDeviceKey();
      if (!renewed) throw error;
      holder.key = renewed;
      return request(renewed);
    }
  }

  /**
   * The wait after a failure, in seconds: full jitter under the ceiling, at least Retry-After.
   * @param {number} attempts
   * @param {unknown} error
   */
  function backoff(attempts, error) {
    const retryAfter = /** @type {any} */ (error)?.retryAfter;
    const jittered = retryCeiling(attempts) * Math.min(Math.max(random(), 0), 1);
    return typeof retryAfter === 'number' ? Math.max(jittered, retryAfter) : jittered;
  }

  /**
   * Uploads one queued route.
   * @param {LocalRoute} route
   * @param {{key: DeviceKey}} holder
   * @returns {Promise<'stored' | 'waiting' | 'failed' | 'offline' | 'gone'>}
   */
  async function upload(route, holder) {
    const sealed = /** @type {SealedUpload} */ (route.upload);
    sealed.attempts += 1;
    await storage.routes.put(route); // before sending: a lost answer may have stored it
    const body = JSON.stringify({ envelope: sealed.envelope, lookup: sealed.lookup, deleteTokenHash: sealed.deleteTokenHash });
    try {
      const created = await withKey(holder, (key) => signedRequest(key, 'createRoute', {
        body, signed: [['content-type', 'application/json'], ['idempotency-key', sealed.idempotencyKey]],
      }));
      const current = await storage.routes.get(route.id);
      if (!current) {
        // Deleted while it was on its way: the remote delete waits for its id.
        for (const pending of await storage.deletes.all()) {
          if (pending.routeId === route.id && !pending.serverRouteId) {
            pending.serverRouteId = String(created?.route_id ?? '') || null;
            await storage.deletes.put(pending);
          }
        }
        return 'gone';
      }
      const stored = {
        ...current, status: /** @type {const} */ ('stored'), serverRouteId: String(created?.route_id ?? ''), upload: null,
        lastError: null, storedAt: typeof created?.creation_time === 'number' ? created.creation_time : seconds(),
      };
      await storage.routes.put(stored);
      Object.assign(route, stored);
      return 'stored';
    } catch (error) {
      const current = await storage.routes.get(route.id);
      if (!current?.upload) return 'gone';
      current.lastError = routeError(error);
      current.upload.attempts = sealed.attempts;
      current.upload.nextAttemptAt = seconds() + (current.lastError.permanent ? 0 : backoff(sealed.attempts, error));
      await storage.routes.put(current);
      Object.assign(route, current);
      if (current.lastError.permanent) return 'failed';
      return current.lastError.status === 0 ? 'offline' : 'waiting';
    }
  }

  /**
   * Carries out one remote delete: by the route's id, or first found by its lookup key.
   * @param {RemoteDelete} pending
   * @param {{key: DeviceKey}} holder
   * @returns {Promise<'deleted' | 'waiting' | 'failed' | 'offline'>}
   */
  async function remoteDelete(pending, holder) {
    pending.attempts += 1;
    await storage.deletes.put(pending);
    try {
      let routeId = pending.serverRouteId;
      if (!routeId) {
        try {
          const found = await withKey(holder, (key) => signedRequest(key, 'findRouteByLookup', { query: { lookup: pending.lookup } }));
          routeId = String(found?.route_id ?? '');
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) routeId = null;
          else throw error;
        }
      }
      if (routeId) {
        try {
          await withKey(holder, (key) => signedRequest(key, 'deleteRoute', {
            path: { route_id: /** @type {string} */ (routeId) }, signed: [['x-delete-token', pending.deleteToken]],
          }));
        } catch (error) {
          // Already gone from the server: what was asked for is done.
          if (!(error instanceof ApiError && error.status === 404)) throw error;
        }
      }
      await storage.deletes.delete(pending.id);
      return 'deleted';
    } catch (error) {
      pending.lastError = routeError(error);
      pending.nextAttemptAt = seconds() + (pending.lastError.permanent ? 0 : backoff(pending.attempts, error));
      await storage.deletes.put(pending);
      if (pending.lastError.permanent) return 'failed';
      return pending.lastError.status === 0 ? 'offline' : 'waiting';
    }
  }

  /**
   * Sends every queued route and remote delete whose time has come, oldest first; stops at the
   * first one that finds no network. Calls made while a drain runs share it.
   * @returns {Promise<DrainResult>}
   */
  function drain() {
    if (draining) return draining;
    draining = (async () => {
      /** @type {DrainResult} */
      const result = { stored: [], deleted: 0, waiting: 0, failed: 0, blocked: null };
      const queued = (await storage.routes.all()).filter((route) => route.status === 'queued' && route.upload)
        .sort((a, b) => (a.stoppedAt ?? 0) - (b.stoppedAt ?? 0));
      const deletes = await pendingDeletes();
      if (queued.length === 0 && deletes.length === 0) return result;
      const waitingAll = () => { result.waiting += queued.length + deletes.length; return result; };
      const link = connection();
      if (!link.online) { result.blocked = 'offline'; return waitingAll(); }
      if (!networkAllows(await wifiOnly(), link)) { result.blocked = 'wifiOnly'; return waitingAll(); }
      const key = await deviceKey();
      if (!key) { result.blocked = 'noDeviceKey'; return waitingAll(); }
      const holder = { key };
      let offline = false;
      const due = (/** @type {number} */ at) => at <= seconds();
      for (const route of queued) {
        const sealed = /** @type {SealedUpload} */ (route.upload);
        if (route.lastError?.permanent) { result.failed += 1; continue; }
        if (offline || !due(sealed.nextAttemptAt)) { result.waiting += 1; continue; }
        const outcome = await upload(route, holder);
        if (outcome === 'stored') result.stored.push(route);
        else if (outcome === 'failed') result.failed += 1;
        else if (outcome !== 'gone') result.waiting += 1;
        if (outcome === 'offline') offline = true;
      }
      for (const pending of deletes) {
        if (pending.lastError?.permanent) { result.failed += 1; continue; }
        if (offline || !due(pending.nextAttemptAt)) { result.waiting += 1; continue; }
        const outcome = await remoteDelete(pending, holder);
        if (outcome === 'deleted') result.deleted += 1;
        else if (outcome === 'failed') result.failed += 1;
        else result.waiting += 1;
        if (outcome === 'offline') offline = true;
      }
      if (offline) result.blocked = 'offline';
      return result;
    })().finally(() => { draining = null; });
    return draining;
  }

  /**
   * When the next retry is due (wall seconds), or null when nothing waits for a time.
   * @returns {Promise<number | null>}
   */
  async function nextAttemptAt() {
    const times = [
      ...(await storage.routes.all()).filter((route) => route.upload && !route.lastError?.permanent).map((route) => /** @type {SealedUpload} */ (route.upload).nextAttemptAt),
      ...(await storage.deletes.all()).filter((pending) => !pending.lastError?.permanent).map((pending) => pending.nextAttemptAt),
    ];
    return times.length === 0 ? null : Math.min(...times);
  }

  return {
    listRoutes, getRoute, unfinishedRoute, beginRoute, saveFix, saveProgress, finishRoute, deleteRoutes,
    retryRoute, pendingDeletes, drain, nextAttemptAt,
  };
}

/** @typedef {ReturnType<typeof createRouteBook>} RouteBook */

/** A route operation that names something that is not there. */
export class RouteBookError extends Error {
  /** @param {'noSuchRoute'} code @param {string} id */
  constructor(code, id) {
    super(`${code}: ${id}`);
    this.name = 'RouteBookError';
    this.code = code;
    this.id = id;
  }
}

/**
 * Keeps a drained queue moving: drains on start, when the network comes back, and when the
 * next retry is due (at least every `period` seconds while anything waits); reports the routes
 * stored in one drain together. Timers are injected for tests.
 * @param {{book: RouteBook, onStored?: (routes: LocalRoute[]) => void, onDrained?: (result: DrainResult) => void,
 *   now?: () => number, setTimer?: (run: () => void, ms: number) => any, clearTimer?: (timer: any) => void,
 *   period?: number}} options
 */
export function createRouteSync({
  book, onStored = () => {}, onDrained = () => {}, now = Date.now,
  setTimer = (run, ms) => setTimeout(run, ms), clearTimer = (timer) => clearTimeout(timer), period = 60,
}) {
  /** @type {any} */
  let timer = null;
  let stopped = false;

  async function syncNow() {
    if (stopped) return null;
    const result = await book.drain();
    if (result.stored.length > 0) onStored(result.stored);
    onDrained(result);
    if (!stopped) await plan(result);
    return result;
  }

  /** @param {DrainResult} result a drain held back (offline, Wi-Fi only, no key) looks again after `period` */
  async function plan(result) {
    if (timer !== null) { clearTimer(timer); timer = null; }
    const next = await book.nextAttemptAt();
    if (next === null || stopped) return;
    const wait = result.blocked ? period : Math.min(period, Math.max(1, next - now() / 1000));
    timer = setTimer(() => { timer = null; void syncNow().catch((error) => console.warn('Waymark: route sync failed:', error)); }, Math.ceil(wait * 1000) + 50);
  }

  function stop() {
    stopped = true;
    if (timer !== null) clearTimer(timer);
    timer = null;
  }

  return { syncNow, stop };
}

/**
 * Storage in memory (for tests, and where IndexedDB is not available).
 * @returns {RouteStorage}
 */
export function memoryRouteStorage() {
  const copy = (/** @type {any} */ value) => structuredClone(value);
  /** @template {{id: string}} T @returns {Records<T>} */
  const table = () => {
    /** @type {Map<string, T>} */
    const rows = new Map();
    return {
      all: async () => [...rows.values()].map(copy),
      get: async (id) => (rows.has(id) ? copy(rows.get(id)) : null),
      put: async (record) => { rows.set(record.id, copy(record)); },
      delete: async (id) => { rows.delete(id); },
    };
  };
  /** @type {FixRecord[]} */
  let fixes = [];
  return {
    routes: table(),
    deletes: table(),
    fixes: {
      add: async (fix) => { fixes.push(copy(fix)); },
      of: async (routeId) => fixes.filter((fix) => fix.routeId === routeId).map(copy),
      deleteRoute: async (routeId) => { fixes = fixes.filter((fix) => fix.routeId !== routeId); },
    },
  };
}
