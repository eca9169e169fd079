// `/tasks` (issue #15 point 1, DESIGN §3.10): the signed-in user's field-inspection tasks, each
// with its status (an icon and a word), photo count, created and due date. Officers and admins
// see every task with its assignee, filter by status, and hand out a new task with the small
// form (a refusal shows the server's reason). Offline the last list seen is shown.
import { t, language, formatDate } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { call, ApiError } from '../api.js';
import { announce } from '../status.js';
import { currentUser } from '../session.js';
import { STATUSES, statusView, formatDue, newTaskBody } from '../../tasks/model.js';
import { remember, remembered, taskOutbox } from '../../tasks/local.js';
import { refusalText, statusBadge } from '../../tasks/words.js';

export const titleKey = 'tasks.title';

/**
 * @param {HTMLElement} root
 * @param {import('../router.js').PageContext} context
 */
export async function render(root, { signal }) {
  const user = await currentUser();
  if (!user && navigator.onLine) {
    root.replaceChildren(
      el('h1', {}, t('tasks.title')),
      el('div', { class: 'card' },
        el('p', {}, t('tasks.signInFirst')),
        el('p', { class: 'actions' }, el('a', { class: 'button primary', href: '/account#sign-in' }, t('home.signIn')))));
    return;
  }
  const officer = user != null && user.role !== 'user';
  const list = el('ul', { class: 'task-list' });
  const empty = el('p', { class: 'hint task-empty', hidden: true }, t('tasks.empty'));
  const note = el('p', { class: 'hint', 'aria-live': 'polite' });

  const filterId = uniqueId('task-filter');
  const filter = el('select', { id: filterId, name: 'status' },
    el('option', { value: '' }, t('tasks.filter.all')),
    ...STATUSES.map((status) => el('option', { value: status }, t(statusView(status).key))));
  const filterBox = officer ? el('div', { class: 'field task-filter' }, el('label', { for: filterId }, t('tasks.filter')), filter) : null;

  root.replaceChildren(...[
    el('h1', {}, t('tasks.title')),
    el('p', { class: 'lead' }, t(officer ? 'tasks.lead.officer' : 'tasks.lead')),
    officer ? newTaskForm() : null,
    el('section', { class: 'card', 'aria-labelledby': 'task-list-heading' },
      el('h2', { id: 'task-list-heading' }, t(officer ? 'tasks.all' : 'tasks.mine')),
      filterBox, note, empty, list),
    el('p', { class: 'record-links' }, el('a', { href: '/inspection' }, t('tasks.toInspection')), ' · ',
      el('a', { href: '/camera' }, t('tasks.toCamera')), ' · ', el('a', { href: '/paths' }, t('settings.toPaths')))]
    .filter(/** @returns {part is HTMLElement} */ (part) => part !== null));

  /** @param {any} task */
  function row(task) {
    return el('li', { class: 'task-item', 'data-id': task.id },
      el('p', { class: 'task-title' }, el('a', { href: `/tasks/${encodeURIComponent(task.id)}` }, task.name)),
      el('p', { class: 'task-line' }, statusBadge(task.status), ' ',
        el('span', { class: 'task-photos' }, t('tasks.photoCount', { count: task.photoCount }))),
      officer ? el('p', { class: 'hint task-assignee' }, t('tasks.assignee'), ': ', `${task.assignee.displayName} (${task.assignee.username})`) : null,
      el('p', { class: 'hint task-dates' }, t('tasks.created', { date: formatDate(task.createdAt) }), ' · ',
        el('span', { class: 'task-due' }, t('tasks.due', { date: formatDue(task.dueDate, language()) }))));
  }

  async function refresh() {
    const status = filter.value;
    const cacheId = `list:${officer ? 'all' : 'mine'}:${status}`;
    /** @type {import('../contract.js').Task[] | null} */
    let items = null;
    try {
      const answer = await call('listTasks', { query: { status: /** @type {import('../../tasks/model.js').TaskStatus} */ (status) || undefined }, cache: 'no-cache' });
      items = answer.items ?? [];
      note.textContent = '';
      void remember(cacheId, items);
    } catch (failure) {
      items = await remembered(cacheId);
      note.textContent = failure instanceof ApiError && failure.status === 0 ? t('tasks.offlineList') : refusalText(failure);
    }
    if (signal.aborted) return;
    list.replaceChildren(...(items ?? []).map(row));
    empty.hidden = (items ?? []).length > 0;
    const waiting = (await taskOutbox().list()).length;
    if (waiting > 0 && !signal.aborted) note.textContent = `${note.textContent} ${t('tasks.waiting', { count: waiting })}`.trim();
  }

  function newTaskForm() {
    const field = /** @param {string} name @param {string} key @param {HTMLElement} input */ (name, key, input) => {
      const id = uniqueId(`task-${name}`);
      input.id = id;
      input.setAttribute('name', name);
      return el('div', { class: 'field' }, el('label', { for: id }, t(key)), input);
    };
    const assignee = el('input', { type: 'text', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', required: true, maxlength: 32 });
    const name = el('input', { type: 'text', autocomplete: 'off', required: true, maxlength: 200 });
    const instructions = el('textarea', { rows: 3, maxlength: 10000 });
    const due = el('input', { type: 'date', required: true });
    const error = el('p', { class: 'form-error', role: 'alert' });
    const submit = el('button', { type: 'submit', class: 'primary' }, t('tasks.new.submit'));
    const form = el('form', { class: 'card task-new', novalidate: true, 'aria-labelledby': 'task-new-heading' },
      el('h2', { id: 'task-new-heading' }, t('tasks.new')),
      field('assignee', 'tasks.new.assignee', assignee),
      field('name', 'tasks.new.name', name),
      field('instructions', 'tasks.new.instructions', instructions),
      field('dueDate', 'tasks.new.due', due),
      error, el('p', { class: 'actions' }, submit));
    // One key per task being written: pressing again after a lost answer (or a timeout) makes
    // the task once; a changed form is another task, with a new key.
    let key = crypto.randomUUID();
    form.addEventListener('input', () => { key = crypto.randomUUID(); });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.textContent = '';
      if (!assignee.value.trim() || !name.value.trim() || !due.value) { error.textContent = t('tasks.new.missing'); return; }
      submit.disabled = true;
      try {
        const body = newTaskBody({ assignee: assignee.value, name: name.value, instructions: instructions.value, dueDate: due.value });
        const task = await call('createTask', { body, headers: { 'Idempotency-Key': key } });
        key = crypto.randomUUID();
        form.reset();
        announce(t('tasks.new.created', { name: task.name, assignee: task.assignee.username }));
        await refresh();
      } catch (failure) {
        error.textContent = refusalText(failure);
      } finally {
        submit.disabled = false;
      }
    });
    return form;
  }

  filter.addEventListener('change', () => void refresh());
  await refresh();
}
