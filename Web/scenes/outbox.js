// Scenes and rephotographs that wait on the phone until the server has them (issue #14, DESIGN
// §3.8's "nothing is lost, no duplicate on retry"). A new scene is its metadata, the reference
// JPEG and the feet shot; a rephotograph of a scene is its metadata and one JPEG. Each is kept
// here before anything is sent — closing the page or the phone dropping it loses nothing — and
// keeps one Idempotency-Key for every attempt (the camera page's own, when it tried first), so a
// resend after a lost answer never stores it twice. No network (or a server down for a moment)
// waits for the next drain; a refusal waits for the person (Try again or Discard); a
// rephotograph whose scene was deleted meanwhile is such a refusal, and says so; so is one made
// while another account was signed in on this phone (it is not sent as someone else's). The send loop
// is the one every outbox shares (Web/app/outbox.js). Storage and sending are injected: the app
// uses IndexedDB and XMLHttpRequest (Web/scenes/uploads.js), the unit tests plain objects.
// Nothing here touches the DOM.
import { isTransient, failureOf, createDrain } from '../app/outbox.js';

/**
 * @typedef {'scene' | 'rephotograph'} SceneOutboxKind
 * @typedef {'waiting' | 'sending' | 'failed'} SceneOutboxState
 * @typedef {import('../app/outbox.js').OutboxFailure} SceneOutboxError
 * @typedef {{data: ArrayBuffer | Blob, name: string, type: string}} ScenePart a JPEG to send
 * @typedef {{field: 'image' | 'feetShot', data: ArrayBuffer | Blob, name: string, type: string}} QueuedPart
 * @typedef {{kind: 'scene', key?: string, owner?: string | null, metadata: Record<string, unknown>,
 *   image: ScenePart, feetShot: ScenePart}} NewScene
 * @typedef {{kind: 'rephotograph', key?: string, owner?: string | null, sceneId: string, sceneName?: string,
 *   metadata: Record<string, unknown>, image: ScenePart}} NewRephotograph
 *   `owner` is the id of the account signed in when it was made (null when the page did not know)
 * @typedef {{id: string, key: string, kind: SceneOutboxKind, owner: string | null, sceneId: string | null, name: string,
 *   capturedAt: string | null, createdAt: number, attempts: number, state: SceneOutboxState,
 *   metadata: string, parts: QueuedPart[], error: SceneOutboxError | null, result: string | null}} QueuedScene
 *   `name` is the scene's (a new one's own, or the retaken one's; '' when it has none);
 *   `metadata` the JSON text of the `metadata` part; `result` the id the server gave it once sent
 * @typedef {{all: () => Promise<QueuedScene[]>, put: (item: QueuedScene) => Promise<void>,
 *   delete: (id: string) => Promise<void>}} SceneOutboxStorage
 * @typedef {(item: QueuedScene, progress: (fraction: number) => void) => Promise<any>} SceneSender
 *   resolves with the server's answer (the scene, or the rephotograph); rejects with an error
 *   that has `status` (0: no network)
 * @typedef {{type: 'queued' | 'sending' | 'progress' | 'sent' | 'waiting' | 'failed' | 'discarded',
 *   item: QueuedScene, fraction?: number, answer?: any}} SceneOutboxEvent
 */

/** The error code of a rephotograph whose scene is gone (the server answered 404). */
export const SCENE_GONE = 'scene_gone';
/** The error code of an item made while another account was signed in than the one now. */
export const OTHER_ACCOUNT = 'other_account';

/**
 * Where an item goes: a new scene (`createScene`), or the retaken scene's photos (`addRephotograph`).
 * @param {{kind: SceneOutboxKind, sceneId: string | null}} item
 * @returns {{ id: 'createScene', path: {} } | { id: 'addRephotograph', path: { scene_id: string } }}
 */
export function destinationOf(item) {
  return item.kind === 'scene' ? { id: 'createScene', path: {} } : { id: 'addRephotograph', path: { scene_id: item.sceneId ?? '' } };
}

/**
 * The parts of an entry, checked: a JPEG with bytes for each the server needs.
 * @param {NewScene | NewRephotograph} entry
 * @returns {QueuedPart[]}
 */
function partsOf(entry) {
  /** @type {Array<['image' | 'feetShot', ScenePart | undefined]>} */
  const wanted = entry.kind === 'scene' ? [['image', entry.image], ['feetShot', entry.feetShot]] : [['image', entry.image]];
  return wanted.map(([field, part]) => {
    const size = part ? (part.data instanceof Blob ? part.data.size : part.data?.byteLength ?? 0) : 0;
    if (!part || size === 0) throw new TypeError(`a ${entry.kind} needs its ${field === 'image' ? 'photo' : 'feet shot'} (no bytes were given)`);
    return { field, data: part.data, name: part.name, type: part.type || 'image/jpeg' };
  });
}

/**
 * `account` says who is signed in now (null when it is not known: offline, or signed out — the
 * server then judges); an item whose `owner` is another account is refused without being sent.
 * @param {{storage: SceneOutboxStorage, send: SceneSender, account?: () => Promise<string | null>,
 *   newId?: () => string, now?: () => number, onEvent?: (event: SceneOutboxEvent) => void}} options
 */
export function createSceneOutbox({ storage, send, account = async () => null, newId = () => crypto.randomUUID(), now = Date.now, onEvent = () => {} }) {
  /** The ids this outbox is sending now (a page's attempt and a drain never send one twice at once). */
  const inFlight = new Set();

  /** Every kept item, oldest first. */
  async function list() {
    return (await storage.all()).sort((a, b) => a.createdAt - b.createdAt);
  }

  /**
   * Keeps a scene or a rephotograph (stored before anything is sent). Given the key of an item
   * already kept — the page tries again, perhaps with a changed name —, that item takes the new
   * content and stays one item with its key.
   * @param {NewScene | NewRephotograph} entry
   */
  async function add(entry) {
    if (entry.kind !== 'scene' && entry.kind !== 'rephotograph') throw new TypeError(`unknown kind of scene upload: ${String(/** @type {any} */ (entry).kind)}`);
    if (!entry.metadata || typeof entry.metadata !== 'object') throw new TypeError(`a ${entry.kind} needs its metadata`);
    if (entry.kind === 'rephotograph' && !entry.sceneId) throw new TypeError('a rephotograph needs the id of its scene');
    const parts = partsOf(entry);
    await settled();
    const key = entry.key || newId();
    const before = (await storage.all()).find((other) => other.key === key);
    const capturedAt = typeof entry.metadata.capturedAt === 'string' ? entry.metadata.capturedAt : null;
    const name = entry.kind === 'scene'
      ? (typeof entry.metadata.name === 'string' ? entry.metadata.name.trim() : '')
      : (entry.sceneName ?? '').trim();
    /** @type {QueuedScene} */
    const item = {
      id: before?.id ?? newId(), key, kind: entry.kind, owner: entry.owner ?? before?.owner ?? null, sceneId: entry.kind === 'rephotograph' ? entry.sceneId : null, name, capturedAt,
      createdAt: before?.createdAt ?? now(), attempts: before?.attempts ?? 0, state: 'waiting',
      metadata: JSON.stringify(entry.metadata), parts, error: null, result: null,
    };
    await storage.put(item);
    onEvent({ type: 'queued', item });
    return item;
  }

  /**
   * Sends one item with its key: removed once the server has it, kept waiting after a transient
   * failure, marked failed when the server refused it.
   * @param {QueuedScene} item
   * @returns {Promise<'sent' | 'waiting' | 'failed'>}
   */
  async function attempt(item) {
    inFlight.add(item.id);
    item.state = 'sending';
    item.attempts += 1;
    item.error = null;
    try {
      await storage.put(item);
      onEvent({ type: 'sending', item });
      try {
        const signedIn = item.owner ? await account() : null;
        if (signedIn && signedIn !== item.owner) {
          throw Object.assign(new Error('made while another account was signed in on this phone'), { status: 403, code: OTHER_ACCOUNT });
        }
        const answer = await send(item, (fraction) => onEvent({ type: 'progress', item, fraction }));
        await storage.delete(item.id);
        item.result = answer && typeof answer.id === 'string' ? answer.id : null;
        onEvent({ type: 'sent', item, answer });
        return 'sent';
      } catch (failure) {
        const error = failureOf(failure);
        // The scene was deleted (or hidden) since the retake: the rephotograph has nowhere to go.
        item.error = item.kind === 'rephotograph' && error.status === 404 ? { ...error, code: SCENE_GONE } : error;
        item.state = isTransient(item.error) ? 'waiting' : 'failed';
        await storage.put(item);
        onEvent({ type: item.state, item });
        return item.state;
      }
    } finally {
      inFlight.delete(item.id);
    }
  }

  /**
   * Sends every waiting item, oldest first (see createDrain); refused ones are left to retry or
   * discard, and one this outbox is sending already is not sent again.
   */
  const { drain, drainAfter, settled } = createDrain({
    pending: async () => (await list()).filter((item) => !inFlight.has(item.id)),
    attempt,
    isFailed: (item) => item.state === 'failed',
  });

  /**
   * Sends an item now (a refused one again, or a waiting one without waiting for the next
   * drain), with the same Idempotency-Key. Null when it is gone (sent or discarded meanwhile)
   * or being sent already.
   * @param {string} id
   * @returns {Promise<'sent' | 'waiting' | 'failed' | null>}
   */
  async function retry(id) {
    await settled();
    const item = (await storage.all()).find((other) => other.id === id);
    if (!item || inFlight.has(id)) return null;
    return attempt(item);
  }

  /**
   * Gives an item up (after a running drain, so it is not sent behind the person's back).
   * @param {string} id
   */
  async function discard(id) {
    await settled();
    const item = (await storage.all()).find((other) => other.id === id);
    if (!item || inFlight.has(id)) return false;
    await storage.delete(id);
    onEvent({ type: 'discarded', item });
    return true;
  }

  /** Items left `sending` by a page that closed mid-way go back to waiting (at start). */
  async function recover() {
    for (const item of await storage.all()) {
      if (item.state === 'sending' && !inFlight.has(item.id)) { item.state = 'waiting'; await storage.put(item); }
    }
  }

  return { add, list, drain, drainAfter, retry, discard, recover };
}

/** @typedef {ReturnType<typeof createSceneOutbox>} SceneOutbox */

/**
 * A storage in memory (for tests, and when IndexedDB is not available).
 * @returns {SceneOutboxStorage}
 */
export function memorySceneStorage() {
  /** @type {Map<string, QueuedScene>} */
  const items = new Map();
  /** @param {QueuedScene} item */
  const copy = (item) => ({ ...item, parts: item.parts.map((part) => ({ ...part })), error: item.error ? { ...item.error } : null });
  return {
    all: async () => [...items.values()].map(copy),
    put: async (item) => { items.set(item.id, copy(item)); },
    delete: async (id) => { items.delete(id); },
  };
}
