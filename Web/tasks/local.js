// Where the /tasks pages keep things on the phone and how they send them. In the app's one
// database (Web/app/store.js): `taskOutbox` holds the notes and photos that wait for the network
// (written before anything is sent, so a closed tab loses nothing), `tasks` the last answer about
// each task and the last list, so that the pages show them offline.
import { ApiError, call } from '../app/api.js';
import { records } from '../app/store.js';
import { createTaskOutbox, memoryOutboxStorage } from './model.js';

/** @typedef {import('./model.js').OutboxItem} OutboxItem */
/** @typedef {import('./model.js').OutboxStorage} OutboxStorage */

/** @typedef {{id: string, value: any}} Copy the last answer kept under an id */
/** The kept answers. */
const copies = () => /** @type {ReturnType<typeof records<Copy>>} */ (records('tasks'));

const hasIndexedDB = () => typeof indexedDB !== 'undefined';

/**
 * Sends one item of the outbox with its Idempotency-Key: a note as PATCH, a photo as multipart,
 * the send as POST …/send.
 * @param {OutboxItem} item
 * @returns {Promise<any>}
 */
export async function sendOutboxItem(item) {
  if (!navigator.onLine) throw new ApiError(0, 'offline', 'the browser is offline');
  const path = { task_id: item.taskId };
  if (item.kind === 'note') return call('editTask', { path, body: { note: item.note ?? '' }, headers: { 'Idempotency-Key': item.key } });
  if (item.kind === 'send') return call('sendTask', { path });
  const form = new FormData();
  for (const [name, value] of Object.entries(item.fields ?? {})) form.append(name, value);
  form.append('photo', new Blob([item.data ?? new ArrayBuffer(0)], { type: item.type }), item.name);
  return call('addTaskPhoto', { path, body: form, headers: { 'Idempotency-Key': item.key } });
}

/** @type {import('./model.js').TaskOutbox | null} */
let outbox = null;

/** The phone's outbox of task changes (in memory when the browser has no IndexedDB). */
export function taskOutbox() {
  if (!outbox) {
    /** @type {OutboxStorage} */
    const storage = hasIndexedDB() ? /** @type {OutboxStorage} */ (records('taskOutbox')) : memoryOutboxStorage();
    outbox = createTaskOutbox({ storage, send: sendOutboxItem });
  }
  return outbox;
}

/**
 * Keeps the server's answer (a task, or the list under the id `list:<filter>`) for offline use.
 * @param {string} id
 * @param {any} value
 */
export async function remember(id, value) {
  if (!hasIndexedDB()) return;
  try { await copies().put({ id, value }); } catch { /* only a cache */ }
}

/**
 * What `remember` kept, or null.
 * @param {string} id
 * @returns {Promise<any>}
 */
export async function remembered(id) {
  if (!hasIndexedDB()) return null;
  try { return (await copies().get(id))?.value ?? null; } catch { return null; }
}
