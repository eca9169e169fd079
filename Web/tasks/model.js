// Field-inspection tasks (DESIGN §3.10, issue #15 points 1 and 8), without the DOM: how a status
// reads (an icon and a word, never colour alone), when a task may be edited, which of its photos
// were not sent yet (only those may be deleted), and the outbox of changes made on the phone — a
// note and added photos — that wait until the server has them, each with its own
// Idempotency-Key for every attempt, so a resend after a lost answer never adds a photo twice.
// Storage and sending are injected: the pages use IndexedDB and fetch, the unit tests plain objects.
import { isTransient, failureOf, createDrain } from '../app/outbox.js';

/** @typedef {'new' | 'open' | 'data_provided' | 'returned'} TaskStatus */

/** The four statuses in the order a task goes through them. */
export const STATUSES = /** @type {readonly TaskStatus[]} */ (Object.freeze(['new', 'open', 'data_provided', 'returned']));

/** @type {Readonly<Record<TaskStatus, {icon: string, key: string}>>} */
const VIEWS = Object.freeze({
  new: { icon: '✦', key: 'tasks.status.new' },
  open: { icon: '○', key: 'tasks.status.open' },
  data_provided: { icon: '✓', key: 'tasks.status.data_provided' },
  returned: { icon: '↩', key: 'tasks.status.returned' },
});

/**
 * How a status is shown: an icon, the i18n key of its word, and the CSS class of its colour.
 * An unknown status reads as new (the server has no other).
 * @param {string} status
 * @returns {{status: TaskStatus, icon: string, key: string, className: string}}
 */
export function statusView(status) {
  const known = /** @type {TaskStatus} */ (STATUSES.includes(/** @type {TaskStatus} */ (status)) ? status : 'new');
  return { status: known, ...VIEWS[known], className: `task-status-${known.replace('_', '-')}` };
}

/**
 * Whether the assignee may change the task (note, photos) and send it.
 * @param {string} status
 */
export function isEditable(status) {
  return status === 'new' || status === 'open' || status === 'returned';
}

/**
 * The ids of the task's photos that were not sent with it (the only ones that may be deleted).
 * The server says which were sent (`sentPhotoIds`). A copy kept on the phone by an older version
 * lacks it: then a returned task counts as sent with every photo it had before its last return.
 * A task that is not editable has none to delete.
 * @param {{status: string, photos?: readonly {id: string, uploadedAt: string}[], sentPhotoIds?: readonly string[]}} task
 * @param {readonly {to: string, at: string}[]} history oldest first (times as the API writes them, ISO 8601)
 * @returns {Set<string>}
 */
export function unsentPhotoIds(task, history) {
  const photos = task.photos ?? [];
  if (!isEditable(task.status)) return new Set();
  if (Array.isArray(task.sentPhotoIds)) {
    const sent = new Set(task.sentPhotoIds);
    return new Set(photos.filter((photo) => !sent.has(photo.id)).map((photo) => photo.id));
  }
  const returns = history.filter((entry) => entry.to === 'returned');
  if (task.status !== 'returned' || returns.length === 0) return new Set(photos.map((photo) => photo.id));
  // The server counts whole seconds in one place and fractions in another: a photo of the same second as the return is after it.
  const since = Math.floor(Date.parse(returns[returns.length - 1].at) / 1000) * 1000;
  return new Set(photos.filter((photo) => Date.parse(photo.uploadedAt) >= since).map((photo) => photo.id));
}

/**
 * A due date as this language writes it: `YYYY-MM-DD` as a date, a UTC date-time with its time.
 * @param {string} due
 * @param {string} language
 */
export function formatDue(due, language) {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(due);
  if (day) {
    const date = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
    return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
  }
  const moment = Date.parse(due);
  if (Number.isNaN(moment)) return due;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(moment));
}

/**
 * The body of POST /api/v1/tasks from the officer's form (instructions left out when empty).
 * @param {{assignee: string, name: string, instructions: string, dueDate: string}} form
 */
export function newTaskBody(form) {
  const instructions = form.instructions.trim();
  return { assignee: form.assignee.trim(), name: form.name.trim(), ...(instructions ? { instructions } : {}), dueDate: form.dueDate };
}

// ---- The outbox ----

/**
 * @typedef {{status: number, code: string, reason: string}} OutboxError
 * @typedef {{id: string, key: string, taskId: string, kind: 'note' | 'photo' | 'send', createdAt: number,
 *   state: 'waiting' | 'failed', note?: string, data?: ArrayBuffer | Blob, name?: string, type?: string,
 *   fields?: Record<string, string>, error: OutboxError | null}} OutboxItem
 *   a note (PATCH), a photo (POST …/photos, multipart with `fields`) or the send (POST …/send,
 *   after everything queued before it) for the task `taskId`
 * @typedef {{all: () => Promise<OutboxItem[]>, put: (item: OutboxItem) => Promise<void>,
 *   delete: (id: string) => Promise<void>}} OutboxStorage
 * @typedef {(item: OutboxItem) => Promise<any>} OutboxSender resolves with the server's answer;
 *   rejects with an error that has `status` (0: no network)
 */

/**
 * The changes made on the phone that wait for the server, oldest first.
 * @param {{storage: OutboxStorage, send: OutboxSender, newId?: () => string, now?: () => number}} options
 */
export function createTaskOutbox({ storage, send, newId = () => crypto.randomUUID(), now = Date.now }) {
  let clock = 0;
  /** Strictly increasing, so two changes of one millisecond keep their order. */
  const stamp = () => { clock = Math.max(clock + 1, now()); return clock; };

  /** @param {string} [taskId] only this task's */
  async function list(taskId) {
    const all = (await storage.all()).sort((a, b) => a.createdAt - b.createdAt);
    return taskId === undefined ? all : all.filter((item) => item.taskId === taskId);
  }

  /**
   * Keeps the task's note to send (replacing a note of it that still waits: only the last counts).
   * @param {string} taskId
   * @param {string} note
   */
  async function setNote(taskId, note) {
    await settled();
    for (const item of await list(taskId)) if (item.kind === 'note') await storage.delete(item.id);
    /** @type {OutboxItem} */
    const item = { id: newId(), key: newId(), taskId, kind: 'note', createdAt: stamp(), state: 'waiting', note, error: null };
    await storage.put(item);
    await keepSendLast(taskId);
    return item;
  }

  /**
   * Keeps a photo to add to the task (stored before anything is sent).
   * @param {string} taskId
   * @param {{data: ArrayBuffer | Blob, name: string, type: string, fields?: Record<string, string>}} photo
   */
  async function addPhoto(taskId, { data, name, type, fields = {} }) {
    /** @type {OutboxItem} */
    const item = { id: newId(), key: newId(), taskId, kind: 'photo', createdAt: stamp(), state: 'waiting', data, name, type, fields: { ...fields }, error: null };
    await storage.put(item);
    await keepSendLast(taskId);
    return item;
  }

  /**
   * A change made while the task's send waits goes before the send (which would otherwise close
   * the task to it).
   * @param {string} taskId
   */
  async function keepSendLast(taskId) {
    const waiting = (await list(taskId)).find((item) => item.kind === 'send' && item.state === 'waiting');
    if (waiting) await storage.put({ ...waiting, createdAt: stamp() });
  }

  /**
   * Keeps the task's send, to go after its note and photos that wait (once: a send already
   * waiting is the one kept).
   * @param {string} taskId
   */
  async function queueSend(taskId) {
    await settled();
    const waiting = (await list(taskId)).find((item) => item.kind === 'send');
    if (waiting) return waiting;
    /** @type {OutboxItem} */
    const item = { id: newId(), key: newId(), taskId, kind: 'send', createdAt: stamp(), state: 'waiting', error: null };
    await storage.put(item);
    return item;
  }

  /**
   * Sends one item with its Idempotency-Key: gone once the server has it. A send the server
   * answers with task_already_sent has arrived before (its answer was lost with the network).
   * @param {OutboxItem} item
   * @returns {Promise<'sent' | 'waiting' | 'failed'>}
   */
  async function attempt(item) {
    try {
      await send(item);
      await storage.delete(item.id);
      return 'sent';
    } catch (failure) {
      const error = /** @type {any} */ (failure);
      if (item.kind === 'send' && error?.code === 'task_already_sent') {
        await storage.delete(item.id);
        return 'sent';
      }
      item.error = failureOf(failure);
      item.state = isTransient(item.error) ? 'waiting' : 'failed';
      await storage.put(item);
      return item.state;
    }
  }

  /** Sends every waiting item, oldest first (see createDrain); refused ones wait for the person. */
  const { drain, drainAfter, settled } = createDrain({ pending: () => list(), attempt, isFailed: (item) => item.state === 'failed' });

  /**
   * Gives an item up (one the server refused).
   * @param {string} id
   */
  async function discard(id) {
    await settled();
    await storage.delete(id);
  }

  return { list, setNote, addPhoto, queueSend, drain, drainAfter, discard };
}

/** @typedef {ReturnType<typeof createTaskOutbox>} TaskOutbox */

/**
 * A storage in memory (for tests, and when IndexedDB is not available).
 * @returns {OutboxStorage}
 */
export function memoryOutboxStorage() {
  /** @type {Map<string, OutboxItem>} */
  const items = new Map();
  return {
    all: async () => [...items.values()].map((item) => ({ ...item, fields: item.fields ? { ...item.fields } : undefined })),
    put: async (item) => { items.set(item.id, { ...item, fields: item.fields ? { ...item.fields } : undefined }); },
    delete: async (id) => { items.delete(id); },
  };
}
