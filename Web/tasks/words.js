// The tasks' own words and marks that more than one page shows (the list, a task, the camera).
import { t } from '../app/i18n.js';
import { describeError } from '../app/errors.js';
import { el } from '../app/dom.js';
import { ApiError } from '../app/api.js';
import { statusView } from './model.js';

/**
 * Why the server refused, in the app's words (never its English reason), or the app's words for
 * no connection.
 * @param {unknown} failure
 */
export function refusalText(failure) {
  if (failure instanceof ApiError) {
    if (failure.status === 0) return t('tasks.offline');
    return describeError(failure, t);
  }
  return String(failure);
}

/**
 * The status as an icon and a word.
 * @param {string} status
 */
export function statusBadge(status) {
  const view = statusView(status);
  return el('span', { class: `task-status ${view.className}` }, el('span', { class: 'task-status-icon', 'aria-hidden': 'true' }, view.icon), ' ', t(view.key));
}
