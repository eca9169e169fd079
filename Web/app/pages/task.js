// `/tasks/:id` (issue #15 points 1 and 8, DESIGN §3.10): one task — name, instructions, due date,
// status and the reason of a return; its assignee's note (saved with PATCH) and photos (added
// with the phone's camera and position, deleted while unsent, which asks first), Send (asks
// first; then nothing can be changed), and the history of its status. An officer returns a sent
// task with a reason. Every refusal shows the server's reason. Offline, a note and added photos
// wait in the phone's outbox (IndexedDB) and go, each with its Idempotency-Key, when the network
// is back; the page says what is waiting.
import { t, language, formatDate } from '../i18n.js';
import { describeError } from '../errors.js';
import { el, replaceKeepingFocus, uniqueId } from '../dom.js';
import { call, ApiError } from '../api.js';
import { announce } from '../status.js';
import { currentUser } from '../session.js';
import { currentPosition } from '../../photos/position.js';
import { isEditable, unsentPhotoIds, formatDue, statusView } from '../../tasks/model.js';
import { remember, remembered, taskOutbox } from '../../tasks/local.js';
import { refusalText, statusBadge } from '../../tasks/words.js';

/** @typedef {import('../../tasks/model.js').OutboxItem} OutboxItem */

/** @typedef {import('../contract.js').Task} Task */

export const titleKey = 'task.title';

/**
 * @param {HTMLElement} root
 * @param {import('../router.js').PageContext} context
 */
export async function render(root, context) {
  const { signal } = context;
  const id = context.params.id ?? '';
  const path = { task_id: id };
  const outbox = taskOutbox();
  const user = await currentUser();
  /** @type {string[]} */
  let objectUrls = [];

  if (!user && navigator.onLine) {
    root.replaceChildren(
      el('h1', {}, t('task.title')),
      el('div', { class: 'card' },
        el('p', {}, t('tasks.signInFirst')),
        el('p', { class: 'actions' }, el('a', { class: 'button primary', href: '/account#sign-in' }, t('home.signIn')))));
    return;
  }

  const problem = el('p', { class: 'form-error', role: 'alert' });
  const waitingNote = el('p', { class: 'task-waiting', 'aria-live': 'polite', hidden: true });
  const body = el('div', { class: 'task-body' });
  root.replaceChildren(
    el('p', { class: 'task-back' }, el('a', { href: '/tasks' }, t('task.back'))),
    el('h1', {}, t('task.title')), problem, waitingNote, body);

  /** @type {Task | null} */
  let task = null;
  /** @type {import('../contract.js').TaskHistoryEntry[]} */
  let history = [];

  async function load() {
    try {
      const [found, past] = await Promise.all([call('getTask', { path, cache: 'no-cache' }), call('taskHistory', { path, cache: 'no-cache' })]);
      task = found;
      history = past.items ?? [];
      void remember(`task:${id}`, { task, history });
      problem.textContent = '';
    } catch (failure) {
      const kept = await remembered(`task:${id}`);
      if (failure instanceof ApiError && failure.status === 0 && kept) {
        task = kept.task;
        history = kept.history;
        problem.textContent = t('task.offlineCopy');
      } else {
        task = null;
        problem.textContent = refusalText(failure);
      }
    }
  }

  async function draw() {
    if (signal.aborted) return;
    for (const url of objectUrls) URL.revokeObjectURL(url);
    objectUrls = [];
    const waiting = await outbox.list(id);
    if (signal.aborted) return;
    showWaiting(waiting);
    if (!task) { body.replaceChildren(); return; }
    const heading = root.querySelector('h1');
    if (heading) heading.textContent = task.name;
    const mine = user ? task.assignee.id === user.id : true;
    const officer = user != null && user.role !== 'user';
    const editable = mine && isEditable(task.status);
    replaceKeepingFocus(body, ...[
      facts(task),
      task.status === 'returned' && task.returnReason
        ? el('div', { class: 'card task-returned', role: 'note' }, el('h2', {}, t('task.returnReason')), el('p', { class: 'task-reason' }, task.returnReason))
        : null,
      noteSection(task, editable, waiting),
      photoSection(task, editable, waiting),
      mine && editable ? sendSection(task, waiting) : null,
      officer && task.status === 'data_provided' ? returnSection() : null,
      historySection()].filter(/** @returns {part is HTMLElement} */ (part) => part !== null));
  }

  /** @param {OutboxItem[]} waiting */
  function showWaiting(waiting) {
    const notes = waiting.filter((item) => item.kind === 'note').length;
    const photos = waiting.filter((item) => item.kind === 'photo').length;
    const sending = waiting.some((item) => item.kind === 'send');
    const failed = waiting.filter((item) => item.state === 'failed');
    waitingNote.hidden = waiting.length === 0;
    const what = [notes > 0 ? t('task.waiting.note') : '', photos > 0 ? t('task.waiting.photos', { count: photos }) : '',
      sending ? t('task.waiting.send') : ''].filter(Boolean).join(', ');
    waitingNote.textContent = waiting.length === 0 ? '' : t('task.waiting', { what });
    if (failed.length > 0) waitingNote.textContent += ` ${t('task.waitingRefused', { reason: failed[0].error ? describeError(failed[0].error, t) : '' })}`;
  }

  /** @param {Task} task */
  function facts(task) {
    return el('section', { class: 'card task-facts', 'aria-label': t('task.facts') },
      el('dl', { class: 'facts' },
        el('dt', {}, t('task.status')), el('dd', {}, statusBadge(task.status)),
        el('dt', {}, t('task.dueDate')), el('dd', { class: 'task-due' }, formatDue(task.dueDate, language())),
        el('dt', {}, t('tasks.assignee')), el('dd', {}, `${task.assignee.displayName} (${task.assignee.username})`),
        el('dt', {}, t('task.createdBy')), el('dd', {}, `${task.createdBy.displayName} · ${formatDate(task.createdAt)}`)),
      el('h2', {}, t('task.instructions')),
      el('p', { class: 'task-instructions' }, task.instructions || t('task.noInstructions')));
  }

  /** @param {Task} task @param {boolean} editable @param {OutboxItem[]} waiting */
  function noteSection(task, editable, waiting) {
    const mine = user ? task.assignee.id === user.id : true;
    const noteId = uniqueId('task-note');
    const pending = waiting.filter((item) => item.kind === 'note').pop();
    const text = el('textarea', { id: noteId, name: 'note', rows: 4, maxlength: 10000, disabled: !editable });
    text.value = pending?.note ?? task.note ?? '';
    const save = el('button', { type: 'submit', class: 'primary' }, t('task.note.save'));
    const form = el('form', { class: 'card task-note', novalidate: true },
      el('h2', {}, el('label', { for: noteId }, t(mine ? 'task.note' : 'task.note.theirs'))), text,
      editable ? el('p', { class: 'actions' }, save) : null);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      // Busy, not disabled: a disabled button loses the keyboard's focus, and the person saving
      // with Enter would find themselves at the top of the page.
      if (save.getAttribute('aria-disabled') === 'true') return;
      save.setAttribute('aria-disabled', 'true');
      await outbox.setNote(id, text.value);
      await flush();
      save.removeAttribute('aria-disabled');
    });
    return form;
  }

  /** @param {Task} task @param {boolean} editable @param {OutboxItem[]} waiting */
  function photoSection(task, editable, waiting) {
    const unsent = unsentPhotoIds(task, history);
    const photos = task.photos ?? [];
    const items = photos.map((photo, index) => {
      const label = t('task.photo', { number: index + 1 });
      return el('li', { class: 'task-photo' },
        el('a', { href: `/photos/${encodeURIComponent(photo.id)}` }, el('img', { src: photo.urls.thumb, alt: label, loading: 'lazy' })),
        editable && unsent.has(photo.id)
          ? el('button', { type: 'button', class: 'danger', 'aria-label': t('task.photo.deleteLabel', { number: index + 1 }), onclick: () => void removePhoto(photo.id, index + 1) }, t('task.photo.delete'))
          : el('span', { class: 'hint' }, unsent.has(photo.id) ? '' : t('task.photo.sent')));
    });
    for (const item of waiting.filter((entry) => entry.kind === 'photo')) {
      const url = URL.createObjectURL(new Blob([item.data ?? new ArrayBuffer(0)], { type: item.type }));
      objectUrls.push(url);
      items.push(el('li', { class: 'task-photo task-photo-waiting' },
        el('img', { src: url, alt: t('task.photo.waiting') }),
        el('span', { class: 'hint' }, item.state === 'failed' ? t('task.photo.refused') : t('task.photo.waiting')),
        item.state === 'failed' ? el('button', { type: 'button', class: 'danger', onclick: () => void discard(item.id) }, t('task.photo.discard')) : null));
    }
    const fileId = uniqueId('task-photo-file');
    const file = el('input', { id: fileId, name: 'photo', type: 'file', accept: 'image/*', capture: 'environment', class: 'file-input' });
    file.addEventListener('change', () => void addPhoto(file));
    return el('section', { class: 'card task-photos-section', 'aria-labelledby': 'task-photos-heading' },
      el('h2', { id: 'task-photos-heading' }, t('task.photos', { count: photos.length })),
      items.length > 0 ? el('ul', { class: 'task-photo-list' }, ...items) : el('p', { class: 'hint' }, t('task.noPhotos')),
      editable ? el('p', { class: 'actions' },
        el('a', { class: 'button primary task-camera', href: `/tasks/${encodeURIComponent(id)}/camera` }, t('task.camera')),
        el('label', { for: fileId, class: 'button camera' }, t('task.photo.add')), file) : null);
  }

  /** @param {Task} task @param {OutboxItem[]} waiting */
  function sendSection(task, waiting) {
    const send = el('button', { type: 'button', class: 'primary task-send' }, t('task.send'));
    const queued = waiting.some((item) => item.kind === 'send' && item.state === 'waiting');
    send.disabled = queued;
    send.addEventListener('click', async () => {
      if (!window.confirm(t('task.send.confirm', { name: task.name }))) return;
      send.disabled = true;
      // The send waits in the outbox behind the note and photos, so it goes after them, offline too.
      await outbox.queueSend(id);
      await flush({ redraw: false });
      const left = (await outbox.list(id)).find((item) => item.kind === 'send');
      if (!left) {
        announce(t('task.sent'));
        await load();
      } else if (left.state === 'failed') {
        problem.textContent = left.error ? describeError(left.error, t) : '';
        await outbox.discard(left.id);
      } else {
        announce(t('task.send.queued'));
      }
      await draw();
    });
    return el('section', { class: 'card task-send-section' },
      el('p', { class: 'hint' }, t(queued ? 'task.send.queued' : waiting.length > 0 ? 'task.send.hintWaiting' : 'task.send.hint')),
      el('p', { class: 'actions' }, send));
  }

  function returnSection() {
    const reasonId = uniqueId('task-reason');
    const reason = el('textarea', { id: reasonId, name: 'reason', rows: 3, maxlength: 2000 });
    const error = el('p', { class: 'form-error', role: 'alert' });
    const give = el('button', { type: 'submit' }, t('task.return'));
    const form = el('form', { class: 'card task-return', novalidate: true },
      el('h2', {}, t('task.return.heading')),
      el('div', { class: 'field' }, el('label', { for: reasonId }, t('task.return.reason')), reason),
      error, el('p', { class: 'actions' }, give));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      give.disabled = true;
      try {
        await call('returnTask', { path, body: { reason: reason.value } });
        announce(t('task.returned'));
        await load();
        await draw();
      } catch (failure) {
        error.textContent = refusalText(failure);
        give.disabled = false;
      }
    });
    return form;
  }

  function historySection() {
    return el('section', { class: 'card task-history', 'aria-labelledby': 'task-history-heading' },
      el('h2', { id: 'task-history-heading' }, t('task.history')),
      el('ol', { class: 'task-history-list' }, ...history.map((entry) => el('li', {},
        el('span', { class: 'task-history-what' }, entry.from === null ? t('task.history.created') : t(statusView(entry.to).key)), ' · ',
        `${entry.actor.displayName} (${entry.actor.username})`, ' · ', formatDate(entry.at),
        entry.reason ? el('span', { class: 'task-history-reason' }, ` — ${entry.reason}`) : null))));
  }

  /** @param {HTMLInputElement} file */
  async function addPhoto(file) {
    const chosen = file.files?.[0];
    if (!chosen) return;
    /** @type {Record<string, string>} */
    const fields = { visibility: 'private', capturedAt: new Date(chosen.lastModified || Date.now()).toISOString() };
    try {
      const place = await currentPosition({ maximumAge: 10000, timeout: 5000 });
      fields.latitude = String(place.latitude);
      fields.longitude = String(place.longitude);
      if (Number.isFinite(place.accuracy)) fields.accuracy = String(Math.round(place.accuracy * 10) / 10);
    } catch { /* sent without a position */ }
    try {
      await outbox.addPhoto(id, { data: await chosen.arrayBuffer(), name: chosen.name || 'image.jpg', type: chosen.type || 'image/jpeg', fields });
    } catch {
      problem.textContent = t('task.photo.storeFailed');
      return;
    }
    file.value = '';
    await flush();
  }

  /** @param {string} photoId @param {number} number */
  async function removePhoto(photoId, number) {
    if (!window.confirm(t('task.photo.deleteConfirm', { number }))) return;
    try {
      await call('deleteTaskPhoto', { path: { task_id: id, photo_id: photoId } });
      announce(t('task.photo.deleted'));
      await load();
    } catch (failure) {
      problem.textContent = refusalText(failure);
    }
    await draw();
  }

  /** @param {string} itemId */
  async function discard(itemId) {
    await outbox.discard(itemId);
    await draw();
  }

  /**
   * Sends what waits, then shows the task as the server has it (unless `redraw` is false).
   * `afterRunning`: the network came back, so the round starts after any running one, which may
   * have just found no network (see createDrain).
   * @param {{redraw?: boolean, afterRunning?: boolean}} options
   */
  async function flush({ redraw = true, afterRunning = false } = {}) {
    const counts = await (afterRunning ? outbox.drainAfter() : outbox.drain());
    if (counts.sent > 0) { announce(t('task.status.sent', { count: counts.sent })); await load(); }
    else if (counts.waiting > 0) announce(t('task.status.waiting'));
    if (redraw) await draw();
  }

  const online = () => void flush({ afterRunning: true });
  window.addEventListener('online', online);
  await load();
  await draw();
  if (navigator.onLine && (await outbox.list(id)).length > 0) void flush();

  return () => {
    window.removeEventListener('online', online);
    for (const url of objectUrls) URL.revokeObjectURL(url);
  };
}
