// The app's upload queue: photos are kept in IndexedDB until the server has them, sent with
// XMLHttpRequest (which reports upload progress), each with its Idempotency-Key; the queue is
// drained when the app starts and whenever the network comes back. What happens is announced
// in the shell's aria-live region, on whichever page is open.
import { ApiError, upload } from '../app/api.js';
import { records } from '../app/store.js';
import { t } from '../app/i18n.js';
import { announce } from '../app/status.js';
import { describeError } from '../app/errors.js';
import { createUploadQueue, memoryStorage } from './upload-queue.js';
import { resultsChanged } from './browse.js';

/** @typedef {import('./upload-queue.js').QueuedUpload} QueuedUpload */
/** @typedef {import('./upload-queue.js').UploadEvent} UploadEvent */

/**
 * Sends one queued upload as POST /api/v1/photos.
 * @param {QueuedUpload} item
 * @param {(fraction: number) => void} progress
 * @returns {Promise<any>} the created photo
 */
export async function sendUpload(item, progress) {
  if (!navigator.onLine) throw new ApiError(0, 'offline', 'the browser is offline');
  const form = new FormData();
  for (const [name, value] of Object.entries(item.fields)) form.append(name, value);
  form.append('photo', new Blob([item.data], { type: item.type }), item.name);
  return upload('uploadPhoto', { body: form, headers: { 'Idempotency-Key': item.key } }, progress);
}

/** @type {Set<(event: UploadEvent) => void>} */
const listeners = new Set();
/** @type {import('./upload-queue.js').UploadQueue | null} */
let queue = null;
let lastAnnouncedStep = -1;

/** @param {UploadEvent} event */
function tell(event) {
  if (event.type === 'progress') {
    const step = Math.floor((event.fraction ?? 0) * 4);
    if (step !== lastAnnouncedStep && step < 4) announce(t('upload.status.progress', { percent: step * 25 }));
    lastAnnouncedStep = step;
  } else {
    lastAnnouncedStep = -1;
    if (event.type === 'sending') announce(t('upload.status.sending'));
    if (event.type === 'sent') resultsChanged();
    if (event.type === 'sent') announce(t('upload.status.sent', { title: event.photo?.title ?? event.item.name }));
    if (event.type === 'waiting') announce(t('upload.status.waiting'));
    if (event.type === 'failed' && event.item.error) announce(t('upload.status.failed', { reason: describeUploadError(event.item.error) }));
    if (event.type === 'discarded') announce(t('upload.status.discarded'));
  }
  for (const listener of listeners) listener(event);
}

/**
 * Words for why the server refused an upload.
 * @param {{status: number, code: string, reason: string}} error
 */
export function describeUploadError(error) {
  const own = /** @type {Record<string, string>} */ ({
    not_an_image: 'upload.error.notAnImage', raw_without_preview: 'upload.error.rawWithoutPreview', broken_image: 'upload.error.broken',
    payload_too_large: 'upload.error.tooLarge', too_many_pixels: 'upload.error.tooLarge',
  })[error.code];
  return own ? t(own) : describeError({ ...error, retryAfter: null }, t);
}

/** The queue (made, recovered and first drained on first use). */
export function uploads() {
  if (!queue) {
    /** @type {import('./upload-queue.js').UploadStorage} */
    let storage;
    try {
      storage = 'indexedDB' in window ? records('uploads') : memoryStorage();
    } catch {
      storage = memoryStorage();
    }
    const made = createUploadQueue({ storage, send: sendUpload, onEvent: tell });
    queue = made;
    // After a round that may still be running: it may have found no network a moment ago.
    window.addEventListener('online', () => void made.drainAfter());
    void made.recover().then(() => made.drain()).catch((error) => console.warn('Waymark: the upload queue is not available:', error));
  }
  return queue;
}

/**
 * Calls `listener` for every event of the queue (until the returned function is called).
 * @param {(event: UploadEvent) => void} listener
 */
export function onUploadEvent(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
