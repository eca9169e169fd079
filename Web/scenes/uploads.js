// The app's scene outbox (Web/scenes/outbox.js): new scenes and rephotographs kept in IndexedDB
// (Web/app/store.js, `sceneOutbox`) until the server has them, sent as multipart forms with
// XMLHttpRequest (which reports the upload's progress) and their Idempotency-Key; drained when
// the app starts and whenever the network comes back, as the photo queue (Web/photos/uploads.js)
// is. What happens is announced in the shell's aria-live region on whichever page is open, so a
// scene that waited is seen to arrive. The two scene cameras (Web/app/pages/scene-new.js and
// scene-retake.js) send through `uploadNow`: the scene is kept first, then sent with its progress
// on the page; without a network it simply stays kept. Loaded at start: nothing here imports the
// cameras' modules.
import { ApiError, upload } from '../app/api.js';
import { records } from '../app/store.js';
import { t } from '../app/i18n.js';
import { announce } from '../app/status.js';
import { describeError } from '../app/errors.js';
import { currentUser } from '../app/session.js';
import { createSceneOutbox, memorySceneStorage, destinationOf, SCENE_GONE, OTHER_ACCOUNT } from './outbox.js';

/** @typedef {import('./outbox.js').QueuedScene} QueuedScene */
/** @typedef {import('./outbox.js').SceneOutboxEvent} SceneOutboxEvent */
/** @typedef {import('./outbox.js').NewScene} NewScene */
/** @typedef {import('./outbox.js').NewRephotograph} NewRephotograph */

/** A new Idempotency-Key: one per scene or rephotograph, kept across retries and in the outbox. */
export function newIdempotencyKey() {
  return crypto.randomUUID();
}

/**
 * Sends one kept scene (POST /api/v1/scenes) or rephotograph (POST …/{id}/photos).
 * @param {QueuedScene} item
 * @param {(fraction: number) => void} progress
 */
export function sendQueuedScene(item, progress) {
  const form = new FormData();
  form.append('metadata', item.metadata);
  for (const part of item.parts) form.append(part.field, new Blob([part.data], { type: part.type }), part.name);
  if (!navigator.onLine) return Promise.reject(new ApiError(0, 'offline', 'the browser is offline'));
  const { id, path } = destinationOf(item);
  return upload(id, { path, body: form, headers: { 'Idempotency-Key': item.key } }, progress);
}

/**
 * Words for why the server refused a scene or a rephotograph.
 * @param {{status: number, code: string, reason: string}} error
 */
export function describeSceneError(error) {
  if (error.code === SCENE_GONE) return t('sceneOutbox.sceneGone');
  if (error.code === OTHER_ACCOUNT) return t('sceneOutbox.otherAccount');
  const own = /** @type {Record<string, string>} */ ({
    not_an_image: 'upload.error.notAnImage', broken_image: 'upload.error.broken',
    payload_too_large: 'upload.error.tooLarge', too_many_pixels: 'upload.error.tooLarge',
  })[error.code];
  return own ? t(own) : describeError({ ...error, retryAfter: null }, t);
}

/**
 * What a kept item is called: "“Red house”", "A scene without a name", "Rephotograph of “Red house”".
 * @param {QueuedScene} item
 */
export function queuedTitle(item) {
  if (item.kind === 'scene') return item.name ? t('sceneOutbox.scene', { name: item.name }) : t('sceneOutbox.sceneUnnamed');
  return item.name ? t('sceneOutbox.rephotograph', { name: item.name }) : t('sceneOutbox.rephotographUnnamed');
}

/** Who is signed in now, when the server can say so (offline: not known). */
async function signedIn() {
  return navigator.onLine ? (await currentUser())?.id ?? null : null;
}

/** @type {Set<(event: SceneOutboxEvent) => void>} */
const listeners = new Set();
/** @type {import('./outbox.js').SceneOutbox | null} */
let outbox = null;

/** @param {SceneOutboxEvent} event */
function tell(event) {
  if (event.type === 'sent') announce(t('sceneOutbox.status.sent', { title: queuedTitle(event.item) }));
  if (event.type === 'failed' && event.item.error) announce(t('sceneOutbox.status.failed', { title: queuedTitle(event.item), reason: describeSceneError(event.item.error) }));
  if (event.type === 'discarded') announce(t('sceneOutbox.status.discarded', { title: queuedTitle(event.item) }));
  for (const listener of listeners) listener(event);
}

/** The outbox (made, recovered and first drained on first use; drained again whenever the network returns). */
export function sceneUploads() {
  if (!outbox) {
    /** @type {import('./outbox.js').SceneOutboxStorage} */
    let storage;
    try {
      storage = typeof indexedDB !== 'undefined' ? records('sceneOutbox') : memorySceneStorage();
    } catch {
      storage = memorySceneStorage();
    }
    const made = createSceneOutbox({ storage, send: sendQueuedScene, account: signedIn, onEvent: tell });
    outbox = made;
    // After a round that may still be running: it may have found no network a moment ago.
    window.addEventListener('online', () => void made.drainAfter().catch((error) => console.warn('Waymark: the scene outbox failed:', error)));
    void made.recover().then(() => made.drain()).catch((error) => console.warn('Waymark: the scene outbox is not available:', error));
  }
  return outbox;
}

/**
 * Gives up the kept item with this Idempotency-Key, if there is one (a camera page's photo taken again).
 * @param {string} key
 */
export async function discardKept(key) {
  const box = sceneUploads();
  const item = (await box.list()).find((other) => other.key === key);
  return item ? box.discard(item.id) : false;
}

/**
 * Calls `listener` for every event of the outbox (until the returned function is called).
 * @param {(event: SceneOutboxEvent) => void} listener
 */
export function onSceneUploadEvent(listener) {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}

/**
 * The upload block both scene cameras show: a progress bar and its words (said in steps of
 * 25 %, so a screen reader is not flooded). `start` shows it, `step` moves it, `hide` takes it away.
 * @param {HTMLProgressElement} bar @param {HTMLElement} words
 */
export function uploadProgress(bar, words) {
  let said = -1;
  return {
    start() {
      said = -1;
      bar.hidden = false;
      bar.value = 0;
      words.textContent = t('sceneCamera.upload.preparing');
    },
    /** @param {number} fraction 0…1 */
    step(fraction) {
      const percent = Math.round(fraction * 100);
      bar.value = percent;
      const quarter = Math.floor(percent / 25);
      if (quarter !== said) { said = quarter; words.textContent = t('sceneCamera.upload.progress', { percent }); }
    },
    hide() {
      bar.hidden = true;
      words.textContent = '';
    },
  };
}

/**
 * @typedef {{outcome: 'sent', answer: any, item: QueuedScene} | {outcome: 'kept', item: QueuedScene}
 *   | {outcome: 'refused', reason: string, item: QueuedScene} | {outcome: 'discarded', item: QueuedScene}} UploadOutcome
 */

/**
 * A camera page's upload: the scene (or rephotograph) is kept in the outbox first — so closing
 * the page from here on loses nothing —, then sent at once with its progress on `progress`.
 * Resolves when the server has it ('sent', with its answer), when there is no network ('kept':
 * it waits on the phone and goes when the network returns) or when the server refused it
 * ('refused', with the words why; it stays kept for Try again or Discard), or when it was
 * discarded meanwhile (on My scenes, in another tab: 'discarded').
 * @param {NewScene | NewRephotograph} entry with the page's Idempotency-Key
 * @param {ReturnType<typeof uploadProgress>} progress
 * @returns {Promise<UploadOutcome>}
 */
export async function uploadNow(entry, progress) {
  const box = sceneUploads();
  // IndexedDB keeps plain bytes everywhere (a Blob in an incognito window's database may not).
  /** @param {import('./outbox.js').ScenePart} part */
  const bytes = async (part) => ({ ...part, data: part.data instanceof Blob ? await part.data.arrayBuffer() : part.data });
  const stored = entry.kind === 'scene'
    ? { ...entry, image: await bytes(entry.image), feetShot: await bytes(entry.feetShot) }
    : { ...entry, image: await bytes(entry.image) };
  const item = await box.add(stored);
  return new Promise((resolve) => {
    let done = false;
    /** @param {UploadOutcome} outcome */
    const finish = (outcome) => { if (done) return; done = true; stop(); resolve(outcome); };
    const stop = onSceneUploadEvent((event) => {
      if (event.item.id !== item.id) return;
      if (event.type === 'progress') progress.step(event.fraction ?? 0);
      if (event.type === 'sent') finish({ outcome: 'sent', answer: event.answer, item: event.item });
      if (event.type === 'waiting') finish({ outcome: 'kept', item: event.item });
      if (event.type === 'failed') finish({ outcome: 'refused', reason: event.item.error ? describeSceneError(event.item.error) : '', item: event.item });
      if (event.type === 'discarded') finish({ outcome: 'discarded', item: event.item });
    });
    // Null: a drain is sending it (its event will answer), or it is gone already — sent (its
    // event answered) or discarded.
    void box.retry(item.id).then(async (result) => {
      if (result === null && !done && !(await box.list()).some((other) => other.id === item.id)) finish({ outcome: 'discarded', item });
    }).catch(() => finish({ outcome: 'kept', item }));
  });
}

/**
 * The upload part of a scene camera page (the new-scene overview, the retake comparison): one
 * upload at a time through `uploadNow` with the page's Idempotency-Key (made at the first
 * attempt, kept for every retry), its progress, the "kept on this phone" note, the refusal's
 * words, and the page following a kept upload that goes while it is open. `upload(entryFor)`
 * builds the entry for the key and sends it; `forget()` discards what the page kept and not sent
 * (a new photo is a new upload, with a key of its own); `stop()` ends the watching.
 * @param {{button: HTMLButtonElement, also: HTMLButtonElement[], kept: HTMLElement, problem: HTMLElement,
 *   bar: HTMLProgressElement, words: HTMLElement, label: string, isAlive: () => boolean,
 *   onSent: (item: QueuedScene) => void}} parts `label` is the button's word before an attempt;
 *   `also` the buttons that wait while an upload runs
 */
export function sceneUploadBlock({ button, also, kept, problem, bar, words, label, isAlive, onSent }) {
  const shown = uploadProgress(bar, words);
  /** @type {string | null} */
  let key = null;
  let uploading = false;

  /** @param {boolean} busy */
  const setBusy = (busy) => { for (const each of [button, ...also]) each.disabled = busy; };
  /** @param {string} reason */
  function refused(reason) {
    kept.hidden = true;
    problem.textContent = t('sceneCamera.upload.refused', { reason });
    problem.hidden = false;
    button.textContent = t('sceneCamera.upload.retry');
  }

  /** @param {(key: string) => Promise<NewScene | NewRephotograph>} entryFor */
  async function upload(entryFor) {
    if (uploading) return;
    uploading = true;
    setBusy(true);
    problem.hidden = true;
    kept.hidden = true;
    shown.start();
    key ??= newIdempotencyKey();
    try {
      const outcome = await uploadNow(await entryFor(key), shown);
      if (!isAlive()) return;
      if (outcome.outcome === 'sent') { onSent(outcome.item); return; }
      shown.hide();
      if (outcome.outcome === 'kept') {
        kept.hidden = false;
        kept.scrollIntoView({ block: 'center' });
        button.textContent = t('sceneCamera.upload.sendNow');
      } else if (outcome.outcome === 'refused') {
        refused(outcome.reason);
      } else {
        button.textContent = label;
      }
    } catch (failure) {
      shown.hide();
      problem.textContent = t('sceneCamera.upload.failed', { reason: String(failure instanceof Error ? failure.message : failure) });
      problem.hidden = false;
      button.textContent = t('sceneCamera.upload.retry');
    } finally {
      uploading = false;
      setBusy(false);
    }
  }

  // What the page kept goes when the network returns while the page is still open: the page follows.
  const stop = onSceneUploadEvent((event) => {
    if (uploading || !isAlive() || key === null || event.item.key !== key) return;
    if (event.type === 'sent') onSent(event.item);
    if (event.type === 'failed' && event.item.error) refused(describeSceneError(event.item.error));
    // Discarded elsewhere (My scenes in another tab): nothing waits any more; it can be uploaded anew.
    if (event.type === 'discarded') { kept.hidden = true; problem.hidden = true; button.textContent = label; }
  });

  async function forget() {
    if (key) await discardKept(key);
    key = null;
    kept.hidden = true;
    button.textContent = label;
  }

  return { upload, forget, stop, isUploading: () => uploading };
}
