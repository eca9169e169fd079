// Uploads that wait for the network (DESIGN §3.8, seed 004: "if a file fails to upload, he may
// choose to try again or discard the image"). Each queued photo keeps its own Idempotency-Key
// for every attempt, so a retry after a lost answer never makes a second photo. Storage and
// sending are injected: the app uses IndexedDB and XMLHttpRequest, the unit tests plain objects.
// Nothing here touches the DOM.

/**
 * @typedef {'waiting' | 'sending' | 'failed'} UploadState
 * @typedef {{status: number, code: string, reason: string}} UploadError
 * @typedef {{id: string, key: string, createdAt: number, attempts: number, state: UploadState,
 *   fields: Record<string, string>, name: string, type: string, data: ArrayBuffer | Blob,
 *   error: UploadError | null, photo: string | null}} QueuedUpload
 *   `data` is the photo's bytes; `fields` the form fields besides the photo; `photo` the id the
 *   server gave it once sent
 * @typedef {{all: () => Promise<QueuedUpload[]>, put: (item: QueuedUpload) => Promise<void>,
 *   delete: (id: string) => Promise<void>}} UploadStorage
 * @typedef {(item: QueuedUpload, progress: (fraction: number) => void) => Promise<any>} UploadSender
 *   resolves with the created photo; rejects with an error that has `status` (0: no network)
 * @typedef {{type: 'queued' | 'sending' | 'progress' | 'sent' | 'waiting' | 'failed' | 'discarded',
 *   item: QueuedUpload, fraction?: number, photo?: any}} UploadEvent
 */

import { isTransient, failureOf, createDrain } from '../app/outbox.js';

export { isTransient };

/**
 * @param {{storage: UploadStorage, send: UploadSender, newId?: () => string, now?: () => number,
 *   onEvent?: (event: UploadEvent) => void}} options
 */
export function createUploadQueue({ storage, send, newId = () => crypto.randomUUID(), now = Date.now, onEvent = () => {} }) {
  /**
   * Adds a photo to the queue (stored before anything is sent).
   * @param {{data: ArrayBuffer | Blob, name: string, type: string, fields?: Record<string, string>}} upload
   */
  async function add({ data, name, type, fields = {} }) {
    /** @type {QueuedUpload} */
    const item = { id: newId(), key: newId(), createdAt: now(), attempts: 0, state: 'waiting', fields: { ...fields }, name, type, data, error: null, photo: null };
    await storage.put(item);
    onEvent({ type: 'queued', item });
    return item;
  }

  /** Every queued upload, oldest first. */
  async function list() {
    return (await storage.all()).sort((a, b) => a.createdAt - b.createdAt);
  }

  /**
   * Sends one upload: removed when the server took it, kept waiting after a transient failure,
   * marked failed when the server refused it.
   * @param {QueuedUpload} item
   * @returns {Promise<'sent' | 'waiting' | 'failed'>}
   */
  async function attempt(item) {
    item.state = 'sending';
    item.attempts += 1;
    item.error = null;
    await storage.put(item);
    onEvent({ type: 'sending', item });
    try {
      const photo = await send(item, (fraction) => onEvent({ type: 'progress', item, fraction }));
      await storage.delete(item.id);
      item.photo = photo && typeof photo.id === 'string' ? photo.id : null;
      onEvent({ type: 'sent', item, photo });
      return 'sent';
    } catch (failure) {
      item.error = failureOf(failure);
      item.state = isTransient(item.error) ? 'waiting' : 'failed';
      await storage.put(item);
      onEvent({ type: item.state, item });
      return item.state;
    }
  }

  /**
   * Sends every waiting upload, oldest first (see createDrain); uploads the server refused are
   * left to retry or discard.
   */
  const { drain, drainAfter, settled } = createDrain({ pending: list, attempt, isFailed: (item) => item.state === 'failed' });

  /**
   * Tries a failed (or waiting) upload again, with the same Idempotency-Key.
   * @param {string} id
   */
  async function retry(id) {
    await settled();
    const item = (await storage.all()).find((other) => other.id === id);
    if (!item) return null;
    return attempt(item);
  }

  /**
   * Gives an upload up.
   * @param {string} id
   */
  async function discard(id) {
    const item = (await storage.all()).find((other) => other.id === id);
    if (!item) return false;
    await storage.delete(id);
    onEvent({ type: 'discarded', item });
    return true;
  }

  /**
   * Uploads left as `sending` by a page that closed mid-way go back to waiting (at start).
   */
  async function recover() {
    for (const item of await storage.all()) {
      if (item.state === 'sending') { item.state = 'waiting'; await storage.put(item); }
    }
  }

  return { add, list, drain, drainAfter, retry, discard, recover };
}

/** @typedef {ReturnType<typeof createUploadQueue>} UploadQueue */

/**
 * A storage in memory (for tests, and when IndexedDB is not available).
 * @returns {UploadStorage}
 */
export function memoryStorage() {
  /** @type {Map<string, QueuedUpload>} */
  const items = new Map();
  return {
    all: async () => [...items.values()].map((item) => ({ ...item, fields: { ...item.fields } })),
    put: async (item) => { items.set(item.id, { ...item, fields: { ...item.fields } }); },
    delete: async (id) => { items.delete(id); },
  };
}
