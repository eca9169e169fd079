// Field paths (DESIGN §3.10, issue #15 point 4), without the DOM: which fixes become points (about
// one a second), what a path measures (the closed polygon's geodesic area and perimeter on WGS-84,
// as the server's WaymarkCore computes them, and the walk's length), the body of
// POST /api/v1/paths, and the queue of paths kept on the phone until the server has them — each
// with its own Idempotency-Key for every attempt, so a resend after a lost answer never makes a
// second path. Storage and sending are injected: the page uses IndexedDB and fetch, the unit
// tests plain objects.
import { geodesicEdge, polygonMeasure } from '../inspection/geometry.js';
import { isTransient, failureOf, createDrain } from '../app/outbox.js';

/** A new point is taken when at least this long has passed since the last one (ms): about one a second. */
export const POINT_INTERVAL_MS = 900;
/** The server takes at most this many points (a day at one a second). */
export const MAX_POINTS = 86400;

/**
 * @typedef {{latitude: number, longitude: number, altitude: number | null, time: number}} PathPoint
 *   `time` in Unix seconds
 * @typedef {{area: number | null, perimeter: number | null, length: number}} PathMeasure
 *   area in m² and perimeter in m of the closed polygon (null with fewer than 3 different places);
 *   length in m along the walk
 * @typedef {'recording' | 'unsent' | 'sending' | 'sent' | 'failed'} PathState
 * @typedef {{id: string, key: string, name: string, points: PathPoint[], createdAt: number,
 *   state: PathState, serverId: string | null, measure: PathMeasure,
 *   error: {status: number, code: string, reason: string} | null}} LocalPath
 *   `id` is the phone's; `serverId` the server's once sent; `measure` the server's once sent
 *   (else the phone's own)
 * @typedef {{all: () => Promise<LocalPath[]>, put: (path: LocalPath) => Promise<void>,
 *   delete: (id: string) => Promise<void>}} PathStorage
 * @typedef {(path: LocalPath) => Promise<any>} PathSender resolves with the server's path;
 *   rejects with an error that has `status` (0: no network)
 */

/**
 * The point a position fix adds to the walk, or null when it comes too soon after the last one
 * (or is not a usable fix).
 * @param {readonly PathPoint[]} points the walk so far
 * @param {{latitude: number, longitude: number, altitude?: number | null, timestamp: number}} fix
 *   `timestamp` in ms since 1970, as GeolocationPosition has it
 * @returns {PathPoint | null}
 */
export function pointFromFix(points, fix) {
  const { latitude, longitude } = fix;
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  const last = points.length > 0 ? points[points.length - 1] : null;
  const time = fix.timestamp / 1000;
  if (!Number.isFinite(time)) return null;
  if (last && (time - last.time) * 1000 < POINT_INTERVAL_MS) return null;
  if (points.length >= MAX_POINTS) return null;
  const altitude = typeof fix.altitude === 'number' && Number.isFinite(fix.altitude) ? fix.altitude : null;
  // Times never go backwards (the server refuses that): a clock step back repeats the last time.
  return { latitude, longitude, altitude, time: last ? Math.max(time, last.time) : time };
}

/**
 * What a walk measures once closed: the polygon from the last point back to the first (WGS-84,
 * Karney's method, as the server), and the walk's own length.
 * @param {readonly PathPoint[]} points
 * @returns {PathMeasure}
 */
export function measurePath(points) {
  let length = 0;
  for (let index = 1; index < points.length; index++) {
    const edge = geodesicEdge(points[index - 1], points[index]);
    if (edge) length += edge.length;
  }
  const polygon = polygonMeasure(points.map(({ latitude, longitude }) => ({ latitude, longitude })));
  return polygon.ok ? { area: polygon.area, perimeter: polygon.perimeter, length } : { area: null, perimeter: null, length };
}

/**
 * The body of POST /api/v1/paths for a path.
 * @param {{name: string, points: readonly PathPoint[]}} path
 * @returns {import('../app/contract.js').NewFieldPath}
 */
export function pathBody(path) {
  const name = path.name.trim();
  return {
    ...(name === '' ? {} : { name }),
    points: path.points.map((point) => [point.latitude, point.longitude, point.altitude, point.time]),
  };
}

/**
 * An area in square metres and in hectares, as this language writes them.
 * @param {number} squareMetres
 * @param {string} language
 * @returns {{squareMetres: string, hectares: string}}
 */
export function formatArea(squareMetres, language) {
  const whole = new Intl.NumberFormat(language, { maximumFractionDigits: squareMetres < 100 ? 1 : 0 });
  const hectares = new Intl.NumberFormat(language, { minimumFractionDigits: 4, maximumFractionDigits: 4 });
  return { squareMetres: `${whole.format(squareMetres)} m²`, hectares: `${hectares.format(squareMetres / 10000)} ha` };
}

/**
 * A length in metres (km from 10 km on), as this language writes it.
 * @param {number} metres
 * @param {string} language
 */
export function formatLength(metres, language) {
  if (metres >= 10000) return `${new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(metres / 1000)} km`;
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: metres < 100 ? 1 : 0 }).format(metres)} m`;
}

/**
 * The paths kept on the phone: the one being recorded, the unsent ones and the sent ones (with
 * the server's id, for the KML and for deleting).
 * @param {{storage: PathStorage, send: PathSender, newId?: () => string, now?: () => number}} options
 */
export function createPathQueue({ storage, send, newId = () => crypto.randomUUID(), now = Date.now }) {
  /** Every path on the phone, newest first. */
  async function list() {
    return (await storage.all()).sort((a, b) => b.createdAt - a.createdAt);
  }

  /**
   * Starts a recording (stored at once, and after every point, so a closed tab keeps the walk).
   * @param {string} name
   */
  async function start(name) {
    /** @type {LocalPath} */
    const path = { id: newId(), key: newId(), name, points: [], createdAt: now(), state: 'recording', serverId: null,
      measure: { area: null, perimeter: null, length: 0 }, error: null };
    await storage.put(path);
    return path;
  }

  /**
   * Stores a recording's points as they are now.
   * @param {LocalPath} path
   */
  async function save(path) {
    await storage.put(path);
  }

  /**
   * Closes a recording into a path to send (a recording without points is dropped).
   * @param {LocalPath} path
   * @returns {Promise<LocalPath | null>}
   */
  async function stop(path) {
    if (path.points.length === 0) { await storage.delete(path.id); return null; }
    path.state = 'unsent';
    path.measure = measurePath(path.points);
    await storage.put(path);
    return path;
  }

  /**
   * Sends one path with its Idempotency-Key: `sent` with the server's id and measures, `unsent`
   * after a transient failure, `failed` when the server refused it.
   * @param {LocalPath} path
   * @returns {Promise<'sent' | 'unsent' | 'failed'>}
   */
  async function attempt(path) {
    path.state = 'sending';
    path.error = null;
    await storage.put(path);
    try {
      const answer = await send(path);
      path.state = 'sent';
      path.serverId = typeof answer?.id === 'string' ? answer.id : null;
      if (answer && typeof answer.length === 'number') {
        path.measure = { area: answer.area ?? null, perimeter: answer.perimeter ?? null, length: answer.length };
      }
      await storage.put(path);
      return 'sent';
    } catch (failure) {
      path.error = failureOf(failure);
      path.state = isTransient(path.error) ? 'unsent' : 'failed';
      await storage.put(path);
      return path.state;
    }
  }

  const loop = createDrain({
    pending: async () => (await list()).filter((path) => path.state === 'unsent' || path.state === 'sending').reverse(),
    attempt: async (path) => {
      const result = await attempt(path);
      return result === 'unsent' ? 'waiting' : result;
    },
  });

  /**
   * Sends every unsent path, oldest first (see createDrain); one the server refused waits for the person.
   * @returns {Promise<{sent: number, unsent: number, failed: number}>}
   */
  async function drain() {
    return counted(await loop.drain());
  }

  /**
   * The same, in a round after the running one (see createDrain): for the network coming back.
   * @returns {Promise<{sent: number, unsent: number, failed: number}>}
   */
  async function drainAfter() {
    return counted(await loop.drainAfter());
  }

  /** @param {{sent: number, waiting: number, failed: number}} counts */
  function counted(counts) {
    return { sent: counts.sent, unsent: counts.waiting, failed: counts.failed };
  }

  /**
   * Sends one path now (the Send button), with the same Idempotency-Key as before.
   * @param {string} id
   */
  async function sendNow(id) {
    await loop.settled();
    const path = (await storage.all()).find((other) => other.id === id);
    if (!path || path.state === 'sent' || path.state === 'recording') return null;
    return attempt(path);
  }

  /**
   * Forgets a path on the phone.
   * @param {string} id
   */
  async function remove(id) {
    await storage.delete(id);
  }

  return { list, start, save, stop, drain, drainAfter, sendNow, remove };
}

/** @typedef {ReturnType<typeof createPathQueue>} PathQueue */

/**
 * A storage in memory (for tests, and when IndexedDB is not available).
 * @returns {PathStorage}
 */
export function memoryPathStorage() {
  /** @type {Map<string, LocalPath>} */
  const items = new Map();
  return {
    all: async () => [...items.values()].map((path) => structuredClone(path)),
    put: async (path) => { items.set(path.id, structuredClone(path)); },
    delete: async (id) => { items.delete(id); },
  };
}
