// What the routes list and a route's page both show of a route: its cloud status with words,
// why the server refused it, its distance in the chosen units, and the question before deleting.
import { t, language } from '../../app/i18n.js';
import { describeError } from '../../app/errors.js';
import { el, uniqueId } from '../../app/dom.js';
import { icon } from '../../app/icons.js';
import { loadSettings } from '../keeper.js';
import { formatDistance } from '../engine.js';

/**
 * What the route pages read of a LocalRoute (Web/recorder/routes.js).
 * @typedef {{id: string, startedAt: number, stoppedAt: number | null, status: string, serverRouteId: string | null,
 *   distance: number, elapsed: number, gaps?: Array<{from: number, to: number}>,
 *   lastError?: {status: number, code: string, reason: string, permanent: boolean} | null}} RouteSummary
 */

/**
 * The route's cloud status (SHO-02, SRD-03): 'queued', 'stored', 'recording' or 'failed' (an
 * upload the server refused for good; the queue keeps the route and says why).
 * @param {RouteSummary} route
 * @returns {'queued' | 'stored' | 'recording' | 'failed'}
 */
export function cloudStatus(route) {
  if (route.status === 'stored') return 'stored';
  if (route.status === 'recording') return 'recording';
  if (failureReason(route) !== null) return 'failed';
  return 'queued';
}

/**
 * Why the server refused the route for good (the queue keeps it and does not try again by
 * itself), or null while it is simply waiting (offline, backing off).
 * @param {RouteSummary} route
 * @returns {string | null}
 */
export function failureReason(route) {
  const error = route.lastError;
  if (route.status === 'stored' || !error || !error.permanent) return null;
  return describeError(error, t);
}

const STATUS_WORDS = {
  queued: 'routes.status.queued', stored: 'routes.status.stored', recording: 'routes.status.recording', failed: 'routes.status.failed',
};

/**
 * The status icon with its words (a screen reader reads "Stored"; a sighted person sees the
 * icon and, on hover or long touch, the same words).
 * @param {RouteSummary} route
 */
export function statusIcon(route) {
  const status = cloudStatus(route);
  const words = t(STATUS_WORDS[status]);
  return el('span', { class: `route-status ${status}`, role: 'img', 'aria-label': words, title: words, 'data-status': status }, icon(status));
}

/**
 * The distance in the chosen units (the recorder's own texts, SRD-01), in the page's language.
 * @param {number} metres
 * @param {'metric' | 'imperial'} units
 */
export function distanceText(metres, units) {
  return formatDistance(metres, units, language());
}

/** The units of the settings, metric when they cannot be read. @returns {Promise<'metric' | 'imperial'>} */
export async function preferredUnits() {
  try {
    const settings = await loadSettings();
    return settings && settings.units === 'imperial' ? 'imperial' : 'metric';
  } catch {
    return 'metric';
  }
}

/**
 * Asks "Delete …?" in a modal dialog; resolves true when confirmed.
 * @param {HTMLElement} host where the dialog is put while open
 * @param {string} question
 * @returns {Promise<boolean>}
 */
export function confirmDelete(host, question) {
  return new Promise((resolve) => {
    const text = el('p', { id: uniqueId('confirm-text') }, question);
    const yes = el('button', { type: 'button', class: 'danger' }, t('routes.delete.yes'));
    const no = el('button', { type: 'button' }, t('routes.delete.no'));
    const dialog = el('dialog', { 'aria-labelledby': text.id, class: 'route-confirm' }, text, el('p', { class: 'actions' }, no, yes));
    /** @param {boolean} answer */
    const finish = (answer) => { if (dialog.open) dialog.close(); dialog.remove(); resolve(answer); };
    no.addEventListener('click', () => finish(false));
    yes.addEventListener('click', () => finish(true));
    dialog.addEventListener('cancel', (event) => { event.preventDefault(); finish(false); });
    host.append(dialog);
    dialog.showModal();
    no.focus();
  });
}
